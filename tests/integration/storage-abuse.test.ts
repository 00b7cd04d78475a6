import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deleteUserData, registerUserDataHandler } from "~/features/auth/index.server";
import type { WireObjectResource } from "~/features/storage/file-metadata";
import { describeEachDatabase, type TestDatabase } from "~tests/helpers/databases";
import { browserHeaders, multipart, png, signUp, startStorageServer, type SignedIn, type StorageTestServer } from "./storage-fixtures";

/**
 * The storage abuse suite, on SQLite and PostgreSQL with the local driver (the S3 driver: storage-s3.test.ts):
 * the quota with unfinished uploads, the cap on open uploads, rate limits per account and per address, custom
 * metadata bounds, chunks raced at one offset, parallel uploads to one name, the sweeper, and an account
 * deletion whose commit fails. Each attack is what a review found getting through.
 */
type ErrorBody = { error?: { code: number; reason: string; detail?: string; message: string } };

/** Random pixels: PNG stays about 3 bytes a pixel, re-encoded or not. */
const noise = (side: number) => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();

/** A signed-in browser, from its own address unless `ip` names another. */
type Actor = SignedIn & { ip?: string };

function storageClient(server: () => StorageTestServer) {
  const headers = (who: Actor) => ({ ...browserHeaders(server(), who), "x-forwarded-for": who.ip ?? who.client.ip });
  const objectUrl = (objectPath: string, query = "") => `${server().baseURL}/v0/b/default/o/${encodeURIComponent(objectPath)}${query}`;
  return {
    headers,
    objectUrl,
    async upload(who: Actor, objectPath: string, bytes: Buffer, metadata: Record<string, unknown> = {}) {
      const { body, headers: parts } = multipart(objectPath, bytes, metadata);
      const response = await fetch(`${server().baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
        method: "POST",
        headers: { ...parts, ...headers(who) },
        body,
      });
      return { status: response.status, body: (await response.json()) as WireObjectResource & ErrorBody };
    },
    async start(who: Actor, objectPath: string, declared?: number) {
      const response = await fetch(`${server().baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
        method: "POST",
        headers: {
          ...headers(who),
          "content-type": "application/json; charset=utf-8",
          "x-goog-upload-protocol": "resumable",
          "x-goog-upload-command": "start",
          ...(declared === undefined ? {} : { "x-goog-upload-header-content-length": String(declared) }),
        },
        body: JSON.stringify({ name: objectPath, contentType: "image/png" }),
      });
      const text = await response.text();
      return { status: response.status, url: response.headers.get("x-goog-upload-url"), body: (text ? JSON.parse(text) : {}) as ErrorBody };
    },
    async step(who: Actor, uploadUrl: string, command: string, offset: number, bytes?: Buffer) {
      const response = await fetch(uploadUrl, {
        method: "POST",
        headers: { ...headers(who), "x-goog-upload-command": command, "x-goog-upload-offset": String(offset) },
        body: bytes ? new Uint8Array(bytes) : undefined,
      });
      const text = await response.text();
      return {
        status: response.status,
        received: response.headers.get("x-goog-upload-size-received"),
        uploadStatus: response.headers.get("x-goog-upload-status"),
        body: (text ? JSON.parse(text) : {}) as WireObjectResource & ErrorBody,
      };
    },
    patch: (who: Actor, objectPath: string, body: unknown) =>
      fetch(objectUrl(objectPath), {
        method: "PATCH",
        headers: { ...headers(who), "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  };
}

/** Blob files of the local driver under one top folder (objects/ or uploads/), with their sizes. */
function blobFiles(database: TestDatabase, folder: "objects" | "uploads") {
  const root = path.join(database.dataDir, "storage", folder);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file, size: fs.statSync(file).size };
    });
}

const uploadId = (url: string) => new URL(url).searchParams.get("upload_id")!;

describeEachDatabase("storage under abuse", (database) => {
  let server: StorageTestServer;
  const api = storageClient(() => server);

  beforeAll(async () => {
    server = await startStorageServer(database(), {
      STORAGE_MAX_UPLOAD_BYTES: String(300 * 1024),
      STORAGE_USER_QUOTA_BYTES: String(400 * 1024),
      STORAGE_MAX_OPEN_UPLOADS: "3",
      STORAGE_ORPHAN_GRACE_SECONDS: "60",
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("counts unfinished uploads against the quota: chunks past it are refused and dropped", async () => {
    const owner = await signUp(server);
    expect((await api.upload(owner, `users/${owner.uid}/kept.png`, await noise(250))).status).toBe(200);
    const answers: number[] = [];
    for (let index = 0; index < 3; index++) {
      const started = await api.start(owner, `users/${owner.uid}/open-${index}.png`);
      expect(started.status).toBe(200);
      const chunk = await api.step(owner, started.url!, "upload", 0, randomBytes(150 * 1024));
      answers.push(chunk.status);
      if (chunk.status !== 200) expect(chunk.body.error).toMatchObject({ code: 402, reason: "storage/quota-exceeded" });
    }
    // About 190 KB stored + 150 KB pending fit in 400 KB; a second 150 KB chunk does not, nor a third.
    expect(answers).toEqual([200, 402, 402]);
    const pending = blobFiles(database(), "uploads").reduce((total, file) => total + file.size, 0);
    expect(pending).toBe(150 * 1024);
    // A declared size past what is left is refused at the start.
    const declared = await api.start(owner, `users/${owner.uid}/declared.png`, 200 * 1024);
    expect([declared.status, declared.body.error?.reason]).toEqual([402, "storage/quota-exceeded"]);
  });

  it("caps the open uploads of one account, and a cancelled one frees its place", async () => {
    const owner = await signUp(server);
    const urls: string[] = [];
    for (let index = 0; index < 3; index++) {
      const started = await api.start(owner, `users/${owner.uid}/cap-${index}.png`);
      expect(started.status).toBe(200);
      urls.push(started.url!);
    }
    const fourth = await api.start(owner, `users/${owner.uid}/cap-3.png`);
    expect([fourth.status, fourth.body.error?.reason, fourth.body.error?.detail]).toEqual([402, "storage/quota-exceeded", "too-many-uploads"]);
    expect(fourth.body.error?.message).toBe("未完成的上傳太多，請先完成或取消其他上傳");
    // Another account is not affected.
    const other = await signUp(server);
    expect((await api.start(other, `users/${other.uid}/cap.png`)).status).toBe(200);
    expect((await api.step(owner, urls[0]!, "cancel", 0)).status).toBe(200);
    expect((await api.start(owner, `users/${owner.uid}/cap-3.png`)).status).toBe(200);
  });

  it("drops unfinished uploads past their lifetime with their chunks, and stops counting them", async () => {
    const owner = await signUp(server);
    const started = await api.start(owner, `users/${owner.uid}/stale.png`);
    expect((await api.step(owner, started.url!, "upload", 0, randomBytes(250 * 1024))).status).toBe(200);
    const id = uploadId(started.url!);
    const chunkFile = path.join(database().dataDir, "storage", "uploads", id, "0");
    expect(fs.existsSync(chunkFile)).toBe(true);
    // 250 KB pending: a 250-px image (about 190 KB) does not fit beside it in 400 KB.
    expect((await api.upload(owner, `users/${owner.uid}/blocked.png`, await noise(250))).status).toBe(402);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000).toISOString();
    await database().handle.db.updateTable("storage_uploads").set({ created_at: twoHoursAgo }).where("id", "=", id).execute();
    // Expired: no longer counted, no longer continued.
    expect((await api.upload(owner, `users/${owner.uid}/blocked.png`, await noise(250))).status).toBe(200);
    expect((await api.step(owner, started.url!, "query", 0)).status).toBe(404);
    const report = await server.storage.sweeper.sweep();
    expect(report.expiredUploads).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(chunkFile)).toBe(false);
    const rows = await database().handle.db.selectFrom("storage_uploads").select("id").where("id", "=", id).execute();
    expect(rows).toEqual([]);
  });

  it("bounds custom metadata: 50 keys and 8 KB, every PATCH merged in", async () => {
    const owner = await signUp(server);
    const objectPath = `users/${owner.uid}/meta.png`;
    expect((await api.upload(owner, objectPath, await png(4, 4))).status).toBe(200);
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, key) => [`k${round}-${key}`, "v"]));
      statuses.push((await api.patch(owner, objectPath, { metadata })).status);
    }
    expect(statuses).toEqual([200, ...Array(19).fill(400)]);
    const refused = await api.patch(owner, objectPath, { metadata: { extra: "x" } });
    expect(((await refused.json()) as ErrorBody).error).toMatchObject({ reason: "storage/invalid-argument", detail: "metadata-too-large" });
    const stored = (await (await fetch(api.objectUrl(objectPath), { headers: api.headers(owner) })).json()) as WireObjectResource;
    expect(Object.keys(stored.metadata ?? {})).toHaveLength(50);
    // Removing keys makes room again; 9 values of 1 KB are past 8 KB.
    expect((await api.patch(owner, objectPath, { metadata: null })).status).toBe(200);
    const big = Object.fromEntries(Array.from({ length: 9 }, (_, key) => [`big${key}`, "x".repeat(1000)]));
    expect((await api.patch(owner, objectPath, { metadata: big })).status).toBe(400);
    expect((await api.upload(owner, `users/${owner.uid}/meta-2.png`, await png(4, 4), { metadata: big })).status).toBe(400);
  });

  it("counts custom metadata in the quota: a PATCH that grows past it is refused", async () => {
    const owner = await signUp(server);
    const stored = await api.upload(owner, `users/${owner.uid}/tiny.png`, await png(4, 4));
    // Fill the 400 KB quota to 2,000 bytes from the top with unfinished uploads (counted byte for byte).
    const first = await api.start(owner, `users/${owner.uid}/fill-1.png`);
    expect((await api.step(owner, first.url!, "upload", 0, randomBytes(200 * 1024))).status).toBe(200);
    const second = await api.start(owner, `users/${owner.uid}/fill-2.png`);
    const rest = 400 * 1024 - Number(stored.body.size) - 200 * 1024 - 2000;
    expect((await api.step(owner, second.url!, "upload", 0, randomBytes(rest))).status).toBe(200);
    expect((await api.patch(owner, stored.body.name, { metadata: { a: "x".repeat(1000), c: "x".repeat(500) } })).status).toBe(200);
    const over = await api.patch(owner, stored.body.name, { metadata: { b: "x".repeat(1000) } });
    expect(over.status).toBe(402);
    expect(((await over.json()) as ErrorBody).error?.reason).toBe("storage/quota-exceeded");
    // Shrinking is always allowed.
    expect((await api.patch(owner, stored.body.name, { metadata: { a: null } })).status).toBe(200);
  });

  it("races two chunks at one offset: one is taken, the other told where the upload stands, never a 500", async () => {
    const owner = await signUp(server);
    const image = await png(64, 64);
    const half = Math.floor(image.length / 2);
    const sessions: string[] = [];
    for (let round = 0; round < 5; round++) {
      const started = await api.start(owner, `users/${owner.uid}/race.png`);
      sessions.push(uploadId(started.url!));
      const garbage = randomBytes(half);
      const answers = await Promise.all([
        api.step(owner, started.url!, "upload", 0, image.subarray(0, half)),
        api.step(owner, started.url!, "upload", 0, garbage),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const loser = answers.find((answer) => answer.status === 400)!;
      expect([loser.body.error?.detail, loser.received, loser.uploadStatus]).toEqual(["upload-offset", String(half), "active"]);
      // The stored chunk is the winner's, whole: the loser wrote nothing.
      const winnerBytes = answers[0]!.status === 200 ? image.subarray(0, half) : garbage;
      const chunk = fs.readFileSync(path.join(database().dataDir, "storage", "uploads", uploadId(started.url!), "0"));
      expect(chunk.equals(winnerBytes)).toBe(true);
      const last = await api.step(owner, started.url!, "upload, finalize", half, image.subarray(half));
      // The image's own first half makes the image; the garbage half makes something that is not one.
      expect([last.status, last.body.error?.detail]).toEqual(answers[0]!.status === 200 ? [200, undefined] : [403, "not-an-image"]);
    }
    // Finalised or refused, each upload is gone with its chunks.
    const left = blobFiles(database(), "uploads").filter((file) => sessions.some((id) => file.file.includes(id)));
    expect(left).toEqual([]);
  });

  it("leaves exactly one file's bytes after 20 parallel uploads to one name", async () => {
    const owner = await signUp(server);
    const objectPath = `users/${owner.uid}/contended.png`;
    const before = new Set(blobFiles(database(), "objects").map((file) => file.file));
    const images = await Promise.all(Array.from({ length: 20 }, (_, index) => png(8, 8, `#0000${(10 + index).toString(16).padStart(2, "0")}`)));
    const answers = await Promise.all(images.map((image) => api.upload(owner, objectPath, image)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const added = blobFiles(database(), "objects").filter((file) => !before.has(file.file));
    expect(added).toHaveLength(1);
    const row = await database().handle.db.selectFrom("storage_objects").select("blob_key").where("path", "=", objectPath).executeTakeFirstOrThrow();
    expect(added[0]!.file.endsWith(row.blob_key.split("/")[1]!)).toBe(true);
    expect(await database().handle.db.selectFrom("storage_trash").selectAll().execute()).toEqual([]);
  });

  it("sweeps orphaned bytes, orphaned chunks and temporary files past the grace period, and nothing else", async () => {
    const owner = await signUp(server);
    const kept = await api.upload(owner, `users/${owner.uid}/kept-by-row.png`, await png(6, 6));
    expect(kept.status).toBe(200);
    const root = path.join(database().dataDir, "storage");
    const plant = (relative: string, age: number) => {
      const file = path.join(root, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, randomBytes(1000));
      const when = new Date(Date.now() - age);
      fs.utimesSync(file, when, when);
      return file;
    };
    const old = 5 * 60 * 1000;
    const orphan = plant(`objects/${randomBytes(16).toString("hex")}`, old);
    const orphanChunk = plant(`uploads/${randomBytes(16).toString("hex")}/0`, old);
    const temporary = plant(`objects/${randomBytes(16).toString("hex")}.abc123.tmp`, old);
    const young = plant(`objects/${randomBytes(16).toString("hex")}`, 1000);
    // Old, but referenced by its row: an ordinary stored file.
    const keptFile = path.join(root, ...(await database().handle.db.selectFrom("storage_objects").select("blob_key").where("path", "=", kept.body.name).executeTakeFirstOrThrow()).blob_key.split("/"));
    fs.utimesSync(keptFile, new Date(Date.now() - old), new Date(Date.now() - old));
    const report = await server.storage.sweeper.sweep();
    expect(report.orphans).toBeGreaterThanOrEqual(2);
    expect(report.temporaries).toBeGreaterThanOrEqual(1);
    expect([orphan, orphanChunk, temporary].map((file) => fs.existsSync(file))).toEqual([false, false, false]);
    expect([young, keptFile].map((file) => fs.existsSync(file))).toEqual([true, true]);
    expect((await fetch(api.objectUrl(kept.body.name, `?alt=media&token=${kept.body.downloadTokens}`))).status).toBe(200);
  });

  it("keeps a user's bytes when the account deletion's transaction fails, and deletes them once it commits", async () => {
    const owner = await signUp(server);
    const stored = await api.upload(owner, `users/${owner.uid}/precious.png`, await png(9, 9));
    const link = api.objectUrl(stored.body.name, `?alt=media&token=${stored.body.downloadTokens}`);
    const failing = {
      name: "test-failing-after-storage",
      exportUserData: async () => [],
      deleteUserData: async () => {
        throw new Error("the commit fails");
      },
      moveUserData: async () => {},
    };
    const unregister = registerUserDataHandler(failing);
    try {
      await expect(deleteUserData(database().handle.db, owner.uid)).rejects.toThrow("the commit fails");
    } finally {
      unregister();
    }
    expect((await fetch(link)).status).toBe(200);
    expect((await fetch(api.objectUrl(stored.body.name), { headers: api.headers(owner) })).status).toBe(200);
    await deleteUserData(database().handle.db, owner.uid);
    expect((await fetch(link)).status).toBe(404);
    const row = await database().handle.db.selectFrom("storage_trash").selectAll().execute();
    expect(row).toEqual([]);
  });
});

describeEachDatabase("storage rate limits", (database) => {
  let server: StorageTestServer;
  const api = storageClient(() => server);

  beforeAll(async () => {
    server = await startStorageServer(database(), {
      RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: "5/600",
      RATE_LIMIT_STORAGE_WRITES_PER_IP: "8/600",
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const writes = async (who: Actor, count: number) => {
    const statuses: number[] = [];
    for (let index = 0; index < count; index++) {
      statuses.push((await api.patch(who, `users/${who.uid}/none-${index}.png`, { cacheControl: "no-cache" })).status);
    }
    return statuses;
  };

  it("limits writes per account, whatever address they come from; deletions stay open", async () => {
    const owner = await signUp(server);
    const stored = await api.upload(owner, `users/${owner.uid}/mine.png`, await png(4, 4));
    expect(stored.status).toBe(200);
    // The upload was one write; four more (404: nothing there) reach the limit.
    expect(await writes(owner, 4)).toEqual([404, 404, 404, 404]);
    const elsewhere: Actor = { ...owner, ip: "198.51.100.1" };
    const refused = await api.patch(elsewhere, stored.body.name, { cacheControl: "no-cache" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as ErrorBody).error).toMatchObject({ reason: "storage/quota-exceeded", detail: "rate-limited", message: "上傳或修改檔案太頻繁，請稍後再試" });
    expect((await api.upload(elsewhere, `users/${owner.uid}/more.png`, await png(4, 4))).status).toBe(429);
    const removal = await fetch(api.objectUrl(stored.body.name), { method: "DELETE", headers: api.headers(owner) });
    expect(removal.status).toBe(204);
  });

  it("limits writes per address, across accounts", async () => {
    // A documentation address: the test server's own clients come from 10.x (one of them could be 10.201.0.1).
    const ip = "198.51.100.2";
    const [first, second] = (await Promise.all([signUp(server), signUp(server)])).map((who): Actor => ({ ...who, ip }));
    expect(await writes(first!, 4)).toEqual([404, 404, 404, 404]);
    expect(await writes(second!, 4)).toEqual([404, 404, 404, 404]);
    expect(await writes(second!, 1)).toEqual([429]);
    // Unauthenticated writes from that address count too and are refused alike.
    const anonymous = await fetch(`${server.baseURL}/v0/b/default/o?name=x`, { method: "POST", headers: { "x-forwarded-for": ip } });
    expect(anonymous.status).toBe(429);
    // Another address is not affected.
    const third = await signUp(server);
    expect(await writes(third, 1)).toEqual([404]);
  });
});
