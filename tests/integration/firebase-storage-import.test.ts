import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deleteApp, initializeApp, type FirebaseApp } from "firebase/app";
import { connectStorageEmulator, getBytes, getDownloadURL, getMetadata, getStorage, ref } from "firebase/storage";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importFirebaseStorage, StorageImportRefused, storageSummaryText } from "~/features/storage/firebase-storage-import.server";
import { localBlobStore } from "~/features/storage/blob-store.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { png, signUp, startStorageServer, type SignedIn, type StorageTestServer } from "./storage-fixtures";

const bucket = "kids-tasks-test.appspot.com";

/**
 * A Firebase Storage bucket copied to a folder plus its objects' metadata (Cloud Storage object resources, as
 * `gcloud storage objects list --format=json` writes them) imported, then downloaded by the official
 * `firebase/storage` client and by the old download URLs with their old tokens.
 */
describeEachDatabase("the Firebase Storage import", (database) => {
  let server: StorageTestServer;
  let parent: SignedIn;
  let folder: string;
  let metadataText: string;
  let app: FirebaseApp | undefined;
  const files: Record<string, { bytes: Buffer; contentType: string; tokens: string; created: string; custom?: Record<string, string> }> = {};

  const write = (objectPath: string, bytes: Buffer) => {
    fs.mkdirSync(path.dirname(path.join(folder, objectPath)), { recursive: true });
    fs.writeFileSync(path.join(folder, objectPath), bytes);
  };
  const resource = (objectPath: string) => {
    const file = files[objectPath]!;
    return {
      kind: "storage#object",
      name: objectPath,
      bucket,
      size: String(file.bytes.length),
      md5Hash: createHash("md5").update(file.bytes).digest("base64"),
      contentType: file.contentType,
      timeCreated: file.created,
      updated: file.created,
      generation: "1614834367890123",
      metadata: { ...file.custom, firebaseStorageDownloadTokens: file.tokens },
    };
  };
  const run = (options: { dryRun?: boolean; metadata?: string } = {}) =>
    importFirebaseStorage(database().handle, localBlobStore(database().dataDir), { from: folder, metadataText: options.metadata ?? metadataText, bucket, dryRun: options.dryRun });
  const objectUrl = (objectPath: string, query: string) => `${server.baseURL}/v0/b/${bucket}/o/${encodeURIComponent(objectPath)}${query}`;
  const rows = () => database().handle.db.selectFrom("storage_objects").selectAll().where("bucket", "=", bucket).execute();

  beforeAll(async () => {
    server = await startStorageServer(database(), { STORAGE_BUCKET: bucket });
    parent = await signUp(server);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "firebase-bucket-"));
    files[`users/${parent.uid}/photos/birthday.png`] = { bytes: await png(64, 48), contentType: "image/png", tokens: `${randomBytes(8).toString("hex")},${randomBytes(8).toString("hex")}`, created: "2021-03-04T05:06:07.890Z", custom: { album: "生日" } };
    files["blog/2021/cover.jpg"] = { bytes: randomBytes(5000), contentType: "image/jpeg", tokens: randomBytes(8).toString("hex"), created: "2020-01-02T03:04:05.000Z" };
    for (const [objectPath, file] of Object.entries(files)) write(objectPath, file.bytes);
    // Folder placeholders the console makes are listed too, and hold nothing.
    metadataText = JSON.stringify([...Object.keys(files).map(resource), { name: "blog/", bucket, size: "0" }], null, 2);
  });
  afterAll(async () => {
    if (app) await deleteApp(app);
    await server.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("refuses a metadata file cut off, another bucket, a missing file or a wrong size before writing anything", async () => {
    await expect(run({ metadata: metadataText.slice(0, 200) })).rejects.toThrow(/截斷/);
    const [first, second] = JSON.parse(metadataText) as Record<string, unknown>[];
    await expect(run({ metadata: JSON.stringify([first, { ...second, bucket: "another.appspot.com" }]) })).rejects.toThrow(/STORAGE_BUCKET/);
    await expect(run({ metadata: JSON.stringify([first, { ...second, name: "blog/never-copied.jpg" }]) })).rejects.toThrow(/沒有這個檔案/);
    await expect(run({ metadata: JSON.stringify([first, { ...second, size: "12" }]) })).rejects.toThrow(StorageImportRefused);
    expect(await rows()).toEqual([]);
  });

  it("a dry run says what it would do and writes nothing", async () => {
    const summary = await run({ dryRun: true });
    expect(summary).toMatchObject({ total: 2, imported: 2, updated: 0, unchanged: 0, skipped: [], dryRun: true });
    expect(storageSummaryText(summary)).toMatch(/^試跑/);
    // The JSON API's page, gcloud's own field names one object a line, and a file changed after its listing.
    const listed = Object.keys(files).map(resource);
    expect(await run({ dryRun: true, metadata: JSON.stringify({ kind: "storage#objects", items: listed }) })).toMatchObject({ imported: 2, skipped: [] });
    const gcloudLines = listed.map(({ name, size, contentType, timeCreated, metadata }) => JSON.stringify({ storage_url: `gs://${bucket}/${name}`, size, content_type: contentType, creation_time: timeCreated.replace(".000Z", "+0000"), custom_fields: metadata }));
    expect(await run({ dryRun: true, metadata: gcloudLines.join("\n") })).toMatchObject({ imported: 2, skipped: [] });
    const changedSince = await run({ dryRun: true, metadata: JSON.stringify([{ ...listed[0], md5Hash: "1B2M2Y8AsgTpgAmY7PhCfg==" }, listed[1]]) });
    expect(changedSince).toMatchObject({ imported: 1, skipped: [{ path: listed[0]!.name, reason: expect.stringContaining("MD5") }] });
    expect(storageSummaryText(changedSince)).toContain(`略過 ${listed[0]!.name}`);
    expect(await rows()).toEqual([]);
  });

  it("imports each object with its path, content type, creation time, custom metadata and tokens; a rerun changes nothing", async () => {
    const progress: number[] = [];
    const summary = await importFirebaseStorage(database().handle, localBlobStore(database().dataDir), { from: folder, metadataText, bucket, progress: (done) => progress.push(done) });
    expect(summary).toMatchObject({ total: 2, imported: 2, updated: 0, unchanged: 0, skipped: [] });
    expect(progress).toEqual([1, 2]);
    const stored = await rows();
    const photo = stored.find((row) => row.path.startsWith("users/"))!;
    expect(photo).toMatchObject({ content_type: "image/png", created_at: "2021-03-04T05:06:07.890Z", download_tokens: files[photo.path]!.tokens, owner_id: parent.uid });
    expect(JSON.parse(photo.custom_metadata!)).toEqual({ album: "生日" });
    expect(stored.find((row) => row.path.startsWith("blog/"))).toMatchObject({ owner_id: null, content_type: "image/jpeg" });
    const again = await run();
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 2 });
    expect(storageSummaryText(again)).toContain("沒有任何變更");
    // A file changed in Firebase since: the next run replaces it, the rest stays.
    const changed = `users/${parent.uid}/photos/birthday.png`;
    files[changed]!.bytes = await png(80, 60, "#00aa44");
    write(changed, files[changed]!.bytes);
    expect(await run({ metadata: JSON.stringify(Object.keys(files).map(resource)) })).toMatchObject({ imported: 0, updated: 1, unchanged: 1 });
  });

  it("the old download URL answers the same bytes with the old token, also through the official firebase/storage client", async () => {
    for (const [objectPath, file] of Object.entries(files)) {
      for (const token of file.tokens.split(",")) {
        const response = await fetch(objectUrl(objectPath, `?alt=media&token=${token}`));
        expect(response.status, objectPath).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(file.bytes), objectPath).toBe(true);
      }
      expect((await fetch(objectUrl(objectPath, "?alt=media&token=not-the-token"))).status).not.toBe(200);
    }
    const { hostname, port } = new URL(server.baseURL);
    const { body } = await parent.client.get<{ token: string }>("/token");
    app = initializeApp({ projectId: "kids-tasks-test", storageBucket: bucket, apiKey: "unused" }, `import-${parent.uid}`);
    const storage = getStorage(app);
    connectStorageEmulator(storage, hostname, Number(port), { mockUserToken: body.token });
    const photoPath = `users/${parent.uid}/photos/birthday.png`;
    const photo = ref(storage, photoPath);
    const url = await getDownloadURL(photo);
    expect(new URL(url).searchParams.get("token")).toBe(files[photoPath]!.tokens.split(",")[0]);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(files[photoPath]!.bytes)).toBe(true);
    expect(Buffer.from(await getBytes(photo)).equals(files[photoPath]!.bytes)).toBe(true);
    const metadata = await getMetadata(photo);
    expect(metadata).toMatchObject({ bucket, fullPath: photoPath, contentType: "image/png", timeCreated: "2021-03-04T05:06:07.890Z", customMetadata: { album: "生日" } });
  });
});
