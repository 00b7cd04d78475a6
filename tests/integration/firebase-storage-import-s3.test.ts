import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFirebaseStorage } from "~/features/storage/firebase-storage-import.server";
import { s3BlobStore } from "~/features/storage/s3-blob-store.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { startStorageServer, type StorageTestServer } from "./storage-fixtures";

const bucket = "kids-tasks-test.appspot.com";

/**
 * The Firebase Storage import with the S3-compatible driver (s3rver on loopback, as storage-s3.test.ts): the bytes
 * land in the S3 bucket and the site serves them at the old URL. The databases are covered by
 * firebase-storage-import.test.ts; this one is about the driver.
 */
describe("the Firebase Storage import through the S3 driver", () => {
  const port = 4521;
  const s3Bucket = "imported-files";
  const s3 = { bucket: s3Bucket, region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true, prefix: "site/" };
  let s3Server: S3rver;
  let directory: string;
  let folder: string;
  let database: TestDatabase;
  let server: StorageTestServer;

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
    s3Server = new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: s3Bucket }] });
    await s3Server.run();
    database = await createTestDatabase("sqlite");
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "firebase-bucket-"));
    server = await startStorageServer(database, {
      STORAGE_BUCKET: bucket,
      STORAGE_DRIVER: "s3",
      S3_BUCKET: s3Bucket,
      S3_REGION: s3.region,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
      S3_PREFIX: s3.prefix,
    });
  });
  afterAll(async () => {
    await server.close();
    await s3Server.close();
    await database.drop();
    fs.rmSync(directory, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("lands the bytes in the S3 bucket, and the old URL answers them with the old token", async () => {
    const bytes = randomBytes(3000);
    const token = randomBytes(8).toString("hex");
    fs.mkdirSync(path.join(folder, "blog"), { recursive: true });
    fs.writeFileSync(path.join(folder, "blog", "old.bin"), bytes);
    const metadataText = JSON.stringify([{ name: "blog/old.bin", bucket, size: String(bytes.length), contentType: "application/octet-stream", timeCreated: "2019-05-06T07:08:09.000Z", metadata: { firebaseStorageDownloadTokens: token } }]);
    const summary = await importFirebaseStorage(database.handle, s3BlobStore(s3), { from: folder, metadataText, bucket });
    expect(summary).toMatchObject({ imported: 1, skipped: [] });
    expect(fs.existsSync(path.join(directory, s3Bucket, "site", "objects"))).toBe(true);
    const response = await fetch(`${server.baseURL}/v0/b/${bucket}/o/${encodeURIComponent("blog/old.bin")}?alt=media&token=${token}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
