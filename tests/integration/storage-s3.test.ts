import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3BlobStore } from "~/features/storage/s3-blob-store.server";
import { createStorageService } from "~/features/storage/storage-service.server";
import { createStorageSweeper } from "~/features/storage/storage-sweeper.server";
import type { StorageFailure } from "~/features/storage/storage-rules.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { png } from "./storage-fixtures";

/**
 * The S3-compatible driver against a real S3-protocol server started here (s3rver, path-style, its fixed
 * development credentials), alone and under the storage service: the abuse cases that touch the driver (quota
 * with unfinished uploads, raced chunks, parallel uploads to one name) and the sweeper.
 */
const port = 4520;
const bucketName = "site-files";

describe("S3 blob driver", () => {
  let server: S3rver;
  let directory: string;
  let database: TestDatabase;
  const store = () =>
    s3BlobStore({
      bucket: bucketName,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
      prefix: "site/",
    });

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
    server = new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: bucketName }] });
    await server.run();
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it("puts, gets and deletes blobs under its prefix; a missing blob reads as null", async () => {
    const blobs = store();
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    await blobs.put("objects/abc123", bytes, "application/octet-stream");
    expect(await blobs.get("objects/abc123")).toEqual(bytes);
    expect(fs.existsSync(path.join(directory, bucketName, "site", "objects"))).toBe(true);
    await blobs.delete("objects/abc123");
    expect(await blobs.get("objects/abc123")).toBeNull();
    await blobs.delete("objects/abc123");
    await expect(blobs.put("../escape", bytes, "text/plain")).rejects.toThrow(/unexpected blob key/);
  });

  const service = (userQuotaBytes = 10 * 1024 * 1024) =>
    createStorageService({
      db: database.handle.db,
      blobs: store(),
      bucket: "default",
      siteUrl: "http://localhost:3000",
      logger: console,
      limits: { maxUploadBytes: 1024 * 1024, userQuotaBytes, maxImageSide: 2048, maxOpenUploads: 5, minFreeBytes: 0 },
    });
  const keysUnder = async (folder: "objects" | "uploads") => (await store().list(folder)).map((entry) => entry.key);

  it("carries the storage service: upload, download by token, delete", async () => {
    const storage = service();
    const caller = { uid: "s3-user", editor: false };
    const resource = await storage.upload(caller, "default", "users/s3-user/a.png", await png(), {});
    const file = await storage.download(null, "default", "users/s3-user/a.png", resource.downloadTokens);
    expect(file.bytes.length).toBe(Number(resource.size));
    await storage.remove(caller, "default", "users/s3-user/a.png");
    await expect(storage.download(null, "default", "users/s3-user/a.png", resource.downloadTokens)).rejects.toMatchObject({
      code: "storage/object-not-found",
    });
  });

  it("counts unfinished uploads in the quota and takes one of two chunks raced at one offset", async () => {
    const storage = service(300 * 1024);
    const caller = { uid: "s3-racer", editor: false };
    const first = await storage.startResumable(caller, "default", "users/s3-racer/a.png", {});
    await storage.continueResumable(caller, first, { commands: ["upload"], offset: 0, chunk: Buffer.alloc(200 * 1024, 1) });
    const second = await storage.startResumable(caller, "default", "users/s3-racer/b.png", {});
    await expect(
      storage.continueResumable(caller, second, { commands: ["upload"], offset: 0, chunk: Buffer.alloc(150 * 1024, 2) }),
    ).rejects.toMatchObject({ status: 402, code: "storage/quota-exceeded" });

    const image = await png(64, 64);
    const half = Math.floor(image.length / 2);
    const raced = await storage.startResumable(caller, "default", "users/s3-racer/c.png", {});
    const garbage = Buffer.alloc(half, 7);
    const outcomes = await Promise.allSettled([
      storage.continueResumable(caller, raced, { commands: ["upload"], offset: 0, chunk: image.subarray(0, half) }),
      storage.continueResumable(caller, raced, { commands: ["upload"], offset: 0, chunk: garbage }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refusal = outcomes.find((outcome) => outcome.status === "rejected")!.reason as StorageFailure;
    expect([refusal.status, refusal.detail, refusal.headers["X-Goog-Upload-Size-Received"]]).toEqual([400, "upload-offset", String(half)]);
    const winner = outcomes[0]!.status === "fulfilled" ? image.subarray(0, half) : garbage;
    expect((await store().get(`uploads/${raced}/0`))?.equals(winner)).toBe(true);
  });

  it("leaves one blob after parallel uploads to one name, and the sweeper removes orphans and expired uploads", async () => {
    const storage = service();
    const caller = { uid: "s3-parallel", editor: false };
    const before = new Set(await keysUnder("objects"));
    const images = await Promise.all(Array.from({ length: 10 }, (_, index) => png(8, 8, `#00${(20 + index).toString(16)}00`)));
    await Promise.all(images.map((image) => storage.upload(caller, "default", "users/s3-parallel/same.png", image, {})));
    expect((await keysUnder("objects")).filter((key) => !before.has(key))).toHaveLength(1);

    const orphan = "objects/0123456789abcdef0123456789abcdef";
    await store().put(orphan, Buffer.from("orphan"), "application/octet-stream");
    const expired = await storage.startResumable(caller, "default", "users/s3-parallel/stale.png", {});
    await storage.continueResumable(caller, expired, { commands: ["upload"], offset: 0, chunk: Buffer.alloc(1000, 3) });
    await database.handle.db.updateTable("storage_uploads").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", expired).execute();
    const sweeper = createStorageSweeper({
      db: database.handle.db,
      blobs: store(),
      logger: console,
      uploadLifetimeMs: 3600_000,
      orphanGraceMs: 0,
      // A moment later than now, so the blobs just written are past the (zero) grace period.
      now: () => Date.now() + 5_000,
    });
    const report = await sweeper.sweep();
    expect(report.expiredUploads).toBe(1);
    expect(report.orphans).toBeGreaterThanOrEqual(1);
    const left = await keysUnder("objects");
    expect(left).not.toContain(orphan);
    expect(await keysUnder("uploads")).not.toContain(`uploads/${expired}/0`);
    const row = await database.handle.db.selectFrom("storage_objects").select("blob_key").where("path", "=", "users/s3-parallel/same.png").executeTakeFirstOrThrow();
    expect(left).toContain(row.blob_key);
  });
});
