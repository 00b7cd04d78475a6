import { randomBytes, randomUUID } from "node:crypto";
import { initializeApp, deleteApp, type FirebaseApp } from "firebase/app";
import {
  connectStorageEmulator,
  deleteObject,
  getBytes,
  getDownloadURL,
  getMetadata,
  getStorage,
  list,
  listAll,
  ref,
  updateMetadata,
  uploadBytes,
  uploadBytesResumable,
  uploadString,
  type FirebaseStorage,
  type StorageError,
} from "firebase/storage";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL as e2eBaseURL } from "./helpers/browser";

/**
 * The official `firebase/storage` client, unchanged, in emulator mode against the built and started site:
 * every call the product's storage uses, with a short-lived token from the sign-in service as its user token.
 */
const baseURL = e2eBaseURL();
const { hostname, port } = new URL(baseURL);

async function signedInToken(): Promise<{ uid: string; token: string }> {
  const email = `storage-${randomUUID().slice(0, 8)}@example.tw`;
  const signUp = await fetch(`${baseURL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL },
    body: JSON.stringify({ email, password: "family-123", name: "家長" }),
  });
  expect(signUp.status).toBe(200);
  const uid = ((await signUp.json()) as { user: { id: string } }).user.id;
  const cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const token = await fetch(`${baseURL}/api/auth/token`, { headers: { cookie } });
  return { uid, token: ((await token.json()) as { token: string }).token };
}

const png = (side: number, random = false) =>
  random
    ? sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer()
    : sharp({ create: { width: side, height: side, channels: 3, background: "#4a6bff" } }).png().toBuffer();

describe("firebase/storage client against the site", () => {
  let app: FirebaseApp;
  let storage: FirebaseStorage;
  let uid: string;

  beforeAll(async () => {
    const signedIn = await signedInToken();
    uid = signedIn.uid;
    app = initializeApp({ projectId: "task-hero", storageBucket: "default", apiKey: "unused" }, `storage-${uid}`);
    storage = getStorage(app);
    connectStorageEmulator(storage, hostname, Number(port), { mockUserToken: signedIn.token });
  });
  afterAll(async () => {
    await deleteApp(app);
  });

  it("uploadBytes, getMetadata, getDownloadURL, getBytes, updateMetadata, deleteObject", async () => {
    const image = await png(32);
    const fileRef = ref(storage, `users/${uid}/bytes.png`);
    const uploaded = await uploadBytes(fileRef, image, { contentType: "image/png", customMetadata: { kind: "test" } });
    expect(uploaded.metadata).toMatchObject({
      bucket: "default",
      fullPath: `users/${uid}/bytes.png`,
      name: "bytes.png",
      contentType: "image/png",
      customMetadata: { kind: "test" },
    });
    expect(typeof uploaded.metadata.size).toBe("number");

    const metadata = await getMetadata(fileRef);
    expect(metadata.md5Hash).toBe(uploaded.metadata.md5Hash);

    const url = await getDownloadURL(fileRef);
    expect(url).toMatch(new RegExp(`^${baseURL.replace(/[.]/g, "\\.")}/v0/b/default/o/users%2F${uid}%2Fbytes\\.png\\?alt=media&token=`));
    const viaUrl = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(viaUrl.length).toBe(metadata.size);

    const bytes = Buffer.from(await getBytes(fileRef));
    expect(bytes).toEqual(viaUrl);
    expect((await sharp(bytes).metadata()).width).toBe(32);

    const updated = await updateMetadata(fileRef, { contentLanguage: "zh-TW", customMetadata: { kind: "updated" } });
    expect(updated).toMatchObject({ contentLanguage: "zh-TW", customMetadata: { kind: "updated" } });

    await deleteObject(fileRef);
    const missing = await getMetadata(fileRef).catch((error: StorageError) => error);
    expect((missing as StorageError).code).toBe("storage/object-not-found");
  });

  it("uploadString in raw, base64, base64url and data_url", async () => {
    const image = await png(8);
    const cases = [
      ["raw", image.toString("latin1")],
      ["base64", image.toString("base64")],
      ["base64url", image.toString("base64url")],
      ["data_url", `data:image/png;base64,${image.toString("base64")}`],
    ] as const;
    for (const [format, value] of cases) {
      const fileRef = ref(storage, `users/${uid}/string-${format}.png`);
      if (format === "raw") {
        // "raw" sends the string as UTF-8: binary bytes do not survive it, so it is a plain-text case the server refuses.
        const refused = await uploadString(fileRef, value, format).catch((error: StorageError) => error);
        expect((refused as StorageError).code).toBe("storage/unauthorized");
        expect((refused as StorageError).status).toBe(403);
        continue;
      }
      const result = await uploadString(fileRef, value, format);
      expect(result.metadata.contentType).toBe("image/png");
      expect((await sharp(Buffer.from(await getBytes(fileRef))).metadata()).width).toBe(8);
    }
  });

  it("uploadBytesResumable reports progress, pauses, resumes and completes", async () => {
    const image = await png(600, true);
    expect(image.length).toBeGreaterThan(3 * 256 * 1024);
    const fileRef = ref(storage, `users/${uid}/resumable.png`);
    const task = uploadBytesResumable(fileRef, image, { contentType: "image/png" });
    const progress: number[] = [];
    let paused = false;
    let resumedFromPause = false;
    task.on("state_changed", (snapshot) => {
      progress.push(snapshot.bytesTransferred);
      if (!paused && snapshot.bytesTransferred > 0 && snapshot.state === "running") {
        paused = task.pause();
        setTimeout(() => {
          resumedFromPause = task.resume();
        }, 200);
      }
    });
    const snapshot = await task;
    expect(paused).toBe(true);
    expect(resumedFromPause).toBe(true);
    expect(snapshot.state).toBe("success");
    expect(snapshot.totalBytes).toBe(image.length);
    expect(progress.at(-1)).toBe(image.length);
    expect(new Set(progress).size).toBeGreaterThan(2);
    expect(snapshot.metadata.fullPath).toBe(`users/${uid}/resumable.png`);
    const stored = await getBytes(fileRef);
    expect((await sharp(Buffer.from(stored)).metadata()).width).toBe(600);
  });

  it("uploadBytesResumable can be cancelled", async () => {
    const task = uploadBytesResumable(ref(storage, `users/${uid}/cancelled.png`), await png(420, true));
    task.on("state_changed", (snapshot) => {
      if (snapshot.bytesTransferred > 0) task.cancel();
    });
    const failure = await new Promise<StorageError | null>((resolve) => {
      task.then(() => resolve(null), (error: StorageError) => resolve(error));
    });
    expect(failure?.code).toBe("storage/canceled");
    const missing = await getMetadata(ref(storage, `users/${uid}/cancelled.png`)).catch((error: StorageError) => error);
    expect((missing as StorageError).code).toBe("storage/object-not-found");
  });

  it("list and listAll with folders and pages", async () => {
    const image = await png(4);
    for (const name of ["a.png", "b.png", "c.png", "nested/d.png"]) {
      await uploadBytes(ref(storage, `users/${uid}/album/${name}`), image);
    }
    const all = await listAll(ref(storage, `users/${uid}/album`));
    expect(all.items.map((item) => item.name)).toEqual(["a.png", "b.png", "c.png"]);
    expect(all.prefixes.map((prefix) => prefix.fullPath)).toEqual([`users/${uid}/album/nested`]);
    const first = await list(ref(storage, `users/${uid}/album`), { maxResults: 2 });
    expect(first.items.map((item) => item.name)).toEqual(["a.png", "b.png"]);
    const second = await list(ref(storage, `users/${uid}/album`), { maxResults: 2, pageToken: first.nextPageToken });
    expect(second.items.map((item) => item.name)).toEqual(["c.png"]);
    expect(second.prefixes.map((prefix) => prefix.name)).toEqual(["nested"]);
  });

  it("answers the rules with the Firebase codes: unauthorized elsewhere, SVG refused, unauthenticated without a token", async () => {
    const foreign = await uploadBytes(ref(storage, "users/someone-else/x.png"), await png(4)).catch((error: StorageError) => error);
    expect((foreign as StorageError).code).toBe("storage/unauthorized");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const refused = await uploadBytes(ref(storage, `users/${uid}/x.svg`), svg, { contentType: "image/svg+xml" }).catch(
      (error: StorageError) => error,
    );
    expect((refused as StorageError).code).toBe("storage/unauthorized");

    const anonymousApp = initializeApp({ projectId: "task-hero", storageBucket: "default", apiKey: "unused" }, `anonymous-${uid}`);
    try {
      const anonymous = getStorage(anonymousApp);
      connectStorageEmulator(anonymous, hostname, Number(port));
      const failure = await uploadBytes(ref(anonymous, `users/${uid}/y.png`), await png(4)).catch((error: StorageError) => error);
      expect((failure as StorageError).code).toBe("storage/unauthenticated");
    } finally {
      await deleteApp(anonymousApp);
    }
  });
});
