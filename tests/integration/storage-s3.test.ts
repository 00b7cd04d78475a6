import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3BlobStore } from "~/features/storage/s3-blob-store.server";
import { createStorageService } from "~/features/storage/storage-service.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { png } from "./storage-fixtures";

/**
 * The S3-compatible driver against a real S3-protocol server started here (s3rver, path-style, its fixed
 * development credentials), alone and under the storage service.
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

  it("carries the storage service: upload, download by token, delete", async () => {
    const service = createStorageService({
      db: database.handle.db,
      blobs: store(),
      bucket: "default",
      siteUrl: "http://localhost:3000",
      logger: console,
      limits: { maxUploadBytes: 1024 * 1024, userQuotaBytes: 10 * 1024 * 1024, maxImageSide: 2048, maxOpenUploads: 5, minFreeBytes: 0 },
    });
    const caller = { uid: "s3-user", editor: false };
    const resource = await service.upload(caller, "default", "users/s3-user/a.png", await png(), {});
    const file = await service.download(null, "default", "users/s3-user/a.png", resource.downloadTokens);
    expect(file.bytes.length).toBe(Number(resource.size));
    await service.remove(caller, "default", "users/s3-user/a.png");
    await expect(service.download(null, "default", "users/s3-user/a.png", resource.downloadTokens)).rejects.toMatchObject({
      code: "storage/object-not-found",
    });
  });
});
