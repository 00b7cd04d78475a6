import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUserRole, deleteUserData, moveUserData } from "~/features/auth/index.server";
import type { WireObjectResource } from "~/features/storage/file-metadata";
import { describeEachDatabase } from "~tests/helpers/databases";
import type { AuthTestServer } from "./auth-server";
import { browserHeaders, multipart, phoneJpeg, png, signUp, startStorageServer, svg, type SignedIn } from "./storage-fixtures";

/**
 * Every storage rule through the HTTP API of the v0 protocol, on SQLite and PostgreSQL, with real images.
 * Small limits here (upload 300 KB, quota 400 KB, longest side 1024 px) make the limits quick to reach.
 */
describeEachDatabase("file storage", (database) => {
  let server: AuthTestServer;
  let parent: SignedIn;
  let other: SignedIn;

  const objectUrl = (objectPath: string, query = "") => `${server.baseURL}/v0/b/default/o/${encodeURIComponent(objectPath)}${query}`;
  const upload = async (who: SignedIn | null, objectPath: string, bytes: Buffer, metadata: Record<string, unknown> = {}) => {
    const { body, headers } = multipart(objectPath, bytes, metadata);
    const response = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
      method: "POST",
      headers: { ...headers, ...(who ? browserHeaders(server, who) : {}) },
      body,
    });
    return { status: response.status, body: (await response.json()) as WireObjectResource & { error?: { reason: string; detail?: string; message: string } } };
  };
  const blobFiles = () => {
    const root = path.join(database().dataDir, "storage", "objects");
    return fs.existsSync(root) ? fs.readdirSync(root) : [];
  };

  beforeAll(async () => {
    server = await startStorageServer(database(), {
      STORAGE_MAX_UPLOAD_BYTES: String(300 * 1024),
      STORAGE_USER_QUOTA_BYTES: String(400 * 1024),
      STORAGE_MAX_IMAGE_SIDE: "1024",
    });
    parent = await signUp(server);
    other = await signUp(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it("stores a user's image under users/<uid>/ and answers the original §3 metadata", async () => {
    const answer = await upload(parent, `users/${parent.uid}/photos/a.png`, await png(), {
      cacheControl: "public, max-age=60",
      contentLanguage: "zh-TW",
      metadata: { album: "家庭" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      bucket: "default",
      name: `users/${parent.uid}/photos/a.png`,
      contentType: "image/png",
      cacheControl: "public, max-age=60",
      contentLanguage: "zh-TW",
      metadata: { album: "家庭" },
      metageneration: "1",
    });
    expect(Number(answer.body.size)).toBeGreaterThan(0);
    expect(answer.body.md5Hash).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(Date.parse(answer.body.timeCreated)).not.toBeNaN();
    expect(answer.body.downloadTokens).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a visitor (401), another user's folder and blog/ (403), and the root (invalid-root-operation)", async () => {
    const image = await png();
    expect((await upload(null, `users/${parent.uid}/x.png`, image)).body.error?.reason).toBe("storage/unauthenticated");
    const foreign = await upload(other, `users/${parent.uid}/x.png`, image);
    expect(foreign).toMatchObject({ status: 403, body: { error: { reason: "storage/unauthorized", message: "你不能存取這個位置的檔案" } } });
    expect((await upload(parent, "blog/x.png", image)).status).toBe(403);
    expect((await upload(parent, "x.png", image)).status).toBe(403);
    const root = await upload(parent, "", image);
    expect(root).toMatchObject({ status: 400, body: { error: { reason: "storage/invalid-root-operation" } } });
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.baseURL}/v0/b/default/o/`, { method, headers: browserHeaders(server, parent) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { reason: string } }).error.reason).toBe("storage/invalid-root-operation");
    }
    const traversal = await upload(parent, `users/${parent.uid}/../${other.uid}/x.png`, image);
    expect(traversal.status).toBe(400);
  });

  it("lets an editor write under blog/ (and only an editor)", async () => {
    const editor = await signUp(server, "編輯");
    expect((await upload(editor, "blog/post-1/cover.png", await png())).status).toBe(403);
    await setUserRole(database().handle, editor.email, "editor");
    expect((await upload(editor, "blog/post-1/cover.png", await png())).status).toBe(200);
    expect((await upload(editor, `users/${parent.uid}/y.png`, await png())).status).toBe(403);
  });

  it("takes images only, recognised by their bytes: SVG, HTML and text are refused whatever they claim", async () => {
    for (const bytes of [svg, Buffer.from("<!doctype html><script>alert(1)</script>"), Buffer.from("hello")]) {
      const answer = await upload(parent, `users/${parent.uid}/fake.png`, bytes);
      expect(answer).toMatchObject({ status: 403, body: { error: { reason: "storage/unauthorized", detail: "not-an-image" } } });
      expect(answer.body.error?.message).toBe("只能上傳 PNG、JPEG、WebP 或 GIF 圖片");
    }
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } }).gif().toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } }).webp().toBuffer();
    // Declared as PNG, stored as what the bytes are.
    expect((await upload(parent, `users/${parent.uid}/g`, gif)).body.contentType).toBe("image/gif");
    expect((await upload(parent, `users/${parent.uid}/w`, webp)).body.contentType).toBe("image/webp");
    const truncated = (await png()).subarray(0, 40);
    expect((await upload(parent, `users/${parent.uid}/broken.png`, truncated)).body.error?.detail).toBe("image-unreadable");
  });

  it("removes EXIF and GPS, applies the orientation and caps the longest side", async () => {
    const original = await phoneJpeg(3000, 1000);
    expect((await exifr.gps(original))?.latitude).toBeCloseTo(25.03, 1);
    const answer = await upload(parent, `users/${parent.uid}/phone.jpg`, original);
    expect(answer.status).toBe(200);
    const stored = Buffer.from(await (await fetch(objectUrl(answer.body.name, `?alt=media&token=${answer.body.downloadTokens}`))).arrayBuffer());
    expect(await exifr.parse(stored, { gps: true, tiff: true, xmp: true, iptc: true })).toBeUndefined();
    expect(await exifr.gps(stored)).toBeUndefined();
    const { width, height, orientation } = await sharp(stored).metadata();
    // Orientation 6 turns the 3000×1000 landscape into a portrait; its longest side is capped at 1024.
    expect({ width, height, orientation }).toEqual({ width: 341, height: 1024, orientation: undefined });
  });

  it("enforces the size limit and the per-user quota (402)", async () => {
    const noise = (side: number) =>
      sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
    const big = await noise(400);
    expect(big.length).toBeGreaterThan(300 * 1024);
    const tooLarge = await upload(other, `users/${other.uid}/big.png`, big);
    expect(tooLarge).toMatchObject({ status: 403, body: { error: { detail: "too-large" } } });

    // About 190 KB each, and random pixels stay that size when re-encoded: two fit in 400 KB, three do not.
    const chunk = await noise(250);
    const first = await upload(other, `users/${other.uid}/q1.png`, chunk);
    expect(first.status).toBe(200);
    // Replacing a file counts its new size only.
    expect((await upload(other, `users/${other.uid}/q1.png`, chunk)).status).toBe(200);
    expect((await upload(other, `users/${other.uid}/q2.png`, chunk)).status).toBe(200);
    const over = await upload(other, `users/${other.uid}/q3.png`, chunk);
    expect(over).toMatchObject({ status: 402, body: { error: { reason: "storage/quota-exceeded", message: "你的儲存空間已滿，請先刪除一些檔案" } } });
  });

  it("serves the bytes with a download token: nosniff, a safe disposition, long caching, ranges", async () => {
    const { body: meta } = await upload(parent, `users/${parent.uid}/相片 "1".png`, await png());
    const url = objectUrl(meta.name, `?alt=media&token=${meta.downloadTokens}`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="__ _1_.png"; filename*=UTF-8''%E7%9B%B8%E7%89%87%20%221%22.png`,
    );
    expect(response.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(Number(meta.size));

    const partial = await fetch(url, { headers: { range: "bytes=1-3" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 1-3/${meta.size}`);
    expect(Buffer.from(await partial.arrayBuffer())).toEqual(bytes.subarray(1, 4));
    expect((await fetch(url, { headers: { range: "bytes=99999-" } })).status).toBe(416);

    // A wrong token tells nothing: the same answer as for a path where nothing is stored.
    const wrongToken = await fetch(objectUrl(meta.name, "?alt=media&token=wrong"));
    const nothingThere = await fetch(objectUrl(`users/${parent.uid}/never-stored.png`, "?alt=media&token=wrong"));
    expect([wrongToken.status, await wrongToken.text()]).toEqual([404, await nothingThere.text()]);
    expect(nothingThere.status).toBe(404);
    expect((await fetch(objectUrl(meta.name, "?alt=media"))).status).toBe(401);
    expect((await fetch(objectUrl(meta.name, "?alt=media"), { headers: browserHeaders(server, other) })).status).toBe(403);
    const own = await fetch(objectUrl(meta.name, "?alt=media"), { headers: browserHeaders(server, parent) });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("identifies callers by a JWT from the sign-in service (Firebase or Bearer), never by a forged one", async () => {
    const { body } = await parent.client.get<{ token: string }>("/token");
    expect(body.token.split(".")).toHaveLength(3);
    const objectPath = `users/${parent.uid}/photos/a.png`;
    for (const scheme of ["Firebase", "Bearer"]) {
      const response = await fetch(objectUrl(objectPath), { headers: { authorization: `${scheme} ${body.token}` } });
      expect(response.status).toBe(200);
    }
    const [head, payload] = body.token.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), sub: other.uid })).toString("base64url");
    const forged = [head, forgedPayload, body.token.split(".")[2]].join(".");
    expect((await fetch(objectUrl(`users/${other.uid}/q1.png`), { headers: { authorization: `Firebase ${forged}` } })).status).toBe(401);
    expect((await fetch(objectUrl(objectPath), { headers: { authorization: "Firebase not-a-token" } })).status).toBe(401);
  });

  it("never lets a cookie change anything from another origin", async () => {
    const { body, headers } = multipart(`users/${parent.uid}/csrf.png`, await png());
    const response = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(`users/${parent.uid}/csrf.png`)}`, {
      method: "POST",
      headers: { ...headers, ...browserHeaders(server, parent), origin: "https://evil.example" },
      body,
    });
    expect(response.status).toBe(401);
    const removal = await fetch(objectUrl(`users/${parent.uid}/photos/a.png`), {
      method: "DELETE",
      headers: { cookie: browserHeaders(server, parent).cookie! },
    });
    expect(removal.status).toBe(401);
  });

  it("lists with prefix, delimiter and page token", async () => {
    const folder = `users/${parent.uid}/list/`;
    for (const name of ["b.png", "a.png", "sub/c.png", "sub/d.png", "z.png"]) await upload(parent, folder + name, await png(4, 4));
    const list = async (query: string) =>
      (await (await fetch(`${server.baseURL}/v0/b/default/o?${query}`, { headers: browserHeaders(server, parent) })).json()) as {
        prefixes: string[];
        items: { name: string }[];
        nextPageToken?: string;
      };
    const first = await list(`prefix=${encodeURIComponent(folder)}&delimiter=%2F&maxResults=2`);
    expect(first.items.map((item) => item.name)).toEqual([`${folder}a.png`, `${folder}b.png`]);
    expect(first.nextPageToken).toBeTruthy();
    const second = await list(`prefix=${encodeURIComponent(folder)}&delimiter=%2F&maxResults=2&pageToken=${first.nextPageToken}`);
    expect(second.prefixes).toEqual([`${folder}sub/`]);
    expect(second.items.map((item) => item.name)).toEqual([`${folder}z.png`]);
    expect(second.nextPageToken).toBeUndefined();
    const flat = await list(`prefix=${encodeURIComponent(folder)}`);
    expect(flat.items).toHaveLength(5);
    const foreign = await fetch(`${server.baseURL}/v0/b/default/o?prefix=${encodeURIComponent(`users/${other.uid}/`)}`, {
      headers: browserHeaders(server, parent),
    });
    expect(foreign.status).toBe(403);
  });

  it("updates metadata with PATCH and deletes with 204; the old link then answers 404", async () => {
    const { body: meta } = await upload(parent, `users/${parent.uid}/patch.png`, await png(), { metadata: { a: "1", b: "2" } });
    const patched = await fetch(objectUrl(meta.name), {
      method: "PATCH",
      headers: { ...browserHeaders(server, parent), "content-type": "application/json" },
      body: JSON.stringify({ contentDisposition: "attachment", metadata: { a: null, c: "3" }, cacheControl: null }),
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ contentDisposition: "attachment", metadata: { b: "2", c: "3" }, metageneration: "2" });
    const unsafe = await fetch(objectUrl(meta.name), {
      method: "PATCH",
      headers: { ...browserHeaders(server, parent), "content-type": "application/json" },
      body: JSON.stringify({ contentDisposition: 'attachment; filename="x"\r\nSet-Cookie: a=b' }),
    });
    expect(unsafe.status).toBe(400);

    const before = blobFiles().length;
    const removal = await fetch(objectUrl(meta.name), { method: "DELETE", headers: browserHeaders(server, parent) });
    expect(removal.status).toBe(204);
    expect(blobFiles().length).toBe(before - 1);
    const gone = await fetch(objectUrl(meta.name, `?alt=media&token=${meta.downloadTokens}`));
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { reason: string } }).error.reason).toBe("storage/object-not-found");
  });

  it("answers bucket-not-found for another bucket", async () => {
    const response = await fetch(`${server.baseURL}/v0/b/other/o/${encodeURIComponent(`users/${parent.uid}/a.png`)}`, {
      headers: browserHeaders(server, parent),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { reason: string } }).error.reason).toBe("storage/bucket-not-found");
  });

  it("crops the profile photo to a 256 px square and keeps its link on the user", async () => {
    const answer = await upload(parent, `users/${parent.uid}/avatar`, await phoneJpeg(1200, 900));
    expect(answer.status).toBe(200);
    const image = await database().handle.db.selectFrom("user").select("image").where("id", "=", parent.uid).executeTakeFirstOrThrow();
    expect(image.image).toBe(objectUrl(answer.body.name, `?alt=media&token=${answer.body.downloadTokens}`));
    const stored = Buffer.from(await (await fetch(image.image!)).arrayBuffer());
    expect(await sharp(stored).metadata()).toMatchObject({ width: 256, height: 256 });
    expect(await exifr.gps(stored)).toBeUndefined();
    await fetch(objectUrl(answer.body.name), { method: "DELETE", headers: browserHeaders(server, parent) });
    const cleared = await database().handle.db.selectFrom("user").select("image").where("id", "=", parent.uid).executeTakeFirstOrThrow();
    expect(cleared.image).toBeNull();
  });

  it("takes a resumable upload in chunks from its owner only, in order, and finalizes it", async () => {
    const objectPath = `users/${parent.uid}/resumable.png`;
    const image = await png(64, 64);
    const start = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
      method: "POST",
      headers: {
        ...browserHeaders(server, parent),
        "content-type": "application/json; charset=utf-8",
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-length": String(image.length),
      },
      body: JSON.stringify({ name: objectPath, contentType: "image/png" }),
    });
    expect(start.headers.get("x-goog-upload-status")).toBe("active");
    const uploadUrl = start.headers.get("x-goog-upload-url")!;
    expect(uploadUrl).toMatch(new RegExp(`^${server.baseURL}/v0/b/default/o\\?name=.+&upload_id=[0-9a-f]{32}`));
    const step = (who: SignedIn, command: string, offset: number, body?: Buffer) =>
      fetch(uploadUrl, {
        method: "POST",
        headers: { ...browserHeaders(server, who), "x-goog-upload-command": command, "x-goog-upload-offset": String(offset) },
        body: body ? new Uint8Array(body) : undefined,
      });
    const half = Math.floor(image.length / 2);
    expect((await step(other, "upload", 0, image.subarray(0, half))).status).toBe(403);
    const first = await step(parent, "upload", 0, image.subarray(0, half));
    expect([first.status, first.headers.get("x-goog-upload-status"), first.headers.get("x-goog-upload-size-received")]).toEqual([200, "active", String(half)]);
    expect((await step(parent, "upload", 0, image.subarray(0, half))).status).toBe(400);
    const query = await step(parent, "query", 0);
    expect(query.headers.get("x-goog-upload-size-received")).toBe(String(half));
    const last = await step(parent, "upload, finalize", half, image.subarray(half));
    expect(last.headers.get("x-goog-upload-status")).toBe("final");
    expect(await last.json()).toMatchObject({ name: objectPath, contentType: "image/png" });
    expect((await step(parent, "query", 0)).status).toBe(404);
  });

  it("moves a guest's files to the account the guest signs in to; the account's own file wins", async () => {
    const guest = await signUp(server, "訪客");
    const account = await signUp(server, "家長");
    const kept = await upload(account, `users/${account.uid}/same.png`, await png(5, 5));
    await upload(guest, `users/${guest.uid}/same.png`, await png(6, 6));
    const moved = await upload(guest, `users/${guest.uid}/only-guest.png`, await png(7, 7));
    await moveUserData(database().handle.db, guest.uid, account.uid);
    const read = async (objectPath: string) => {
      const response = await fetch(objectUrl(objectPath), { headers: browserHeaders(server, account) });
      return response.status === 200 ? ((await response.json()) as WireObjectResource) : response.status;
    };
    expect(await read(`users/${account.uid}/same.png`)).toMatchObject({ md5Hash: kept.body.md5Hash });
    expect(await read(`users/${account.uid}/only-guest.png`)).toMatchObject({ md5Hash: moved.body.md5Hash });
    const rows = await database().handle.db.selectFrom("storage_objects").select("path").where("path", "like", `users/${guest.uid}/%`).execute();
    expect(rows).toEqual([]);
  });

  it("keeps a guest's files when the guest upgrades, and deletes a user's files with the account", async () => {
    const guestClient = server.client();
    const guest = await guestClient.post<{ user: { id: string } }>("/sign-in/anonymous");
    const guestUser: SignedIn = { client: guestClient, uid: guest.body.user.id, email: "" };
    const stored = await upload(guestUser, `users/${guestUser.uid}/drawing.png`, await png());
    expect(stored.status).toBe(200);
    const upgraded = await guestClient.post("/guest/upgrade", { email: `up-${guestUser.uid.slice(0, 8)}@example.tw`, password: "secret-pass-1", name: "升級" });
    expect(upgraded.status).toBe(200);
    expect((await guestClient.me())?.uid).toBe(guestUser.uid);
    expect((await fetch(objectUrl(stored.body.name), { headers: browserHeaders(server, guestUser) })).status).toBe(200);

    const before = blobFiles().length;
    await deleteUserData(database().handle.db, guestUser.uid);
    expect(blobFiles().length).toBe(before - 1);
    expect((await fetch(objectUrl(stored.body.name, `?alt=media&token=${stored.body.downloadTokens}`))).status).toBe(404);
  });
});
