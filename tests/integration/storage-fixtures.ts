import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { createStorage } from "~/features/storage/storage.server";
import type { TestDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

/** Test images made on the spot: a JPEG straight from a phone (EXIF, GPS, rotated), a PNG, an SVG. */
export async function phoneJpeg(width = 3000, height = 1000) {
  return sharp({ create: { width, height, channels: 3, background: "#3b5bdb" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "TestPhone", Model: "Camera 1" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "25/1 2/1 3/1", GPSLongitudeRef: "E", GPSLongitude: "121/1 33/1 0/1" },
    })
    .toBuffer();
}

export function png(width = 40, height = 30, background = "#ff8800") {
  return sharp({ create: { width, height, channels: 4, background } }).png().toBuffer();
}

export const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

export type StorageTestServer = AuthTestServer & { storage: ReturnType<typeof createStorage> };

/** The sign-in layer with file storage mounted beside it, on a real HTTP server over the test database. */
export async function startStorageServer(database: TestDatabase, env: Record<string, string> = {}): Promise<StorageTestServer> {
  let storage: ReturnType<typeof createStorage> | undefined;
  const server = await startAuthServer(database, { DATA_DIR: database.dataDir, ...env }, {
    routes: (service) => (storage = createStorage({ env: service.env, database: database.handle, authService: service })).routes,
  });
  return {
    ...server,
    storage: storage!,
    close: async () => {
      storage?.stop();
      await server.close();
    },
  };
}

export interface SignedIn {
  client: AuthTestClient;
  uid: string;
  email: string;
}

/** A new account, signed in (unverified, as sign-up leaves it). */
export async function signUp(server: AuthTestServer, name = "家長"): Promise<SignedIn> {
  const client = server.client();
  const email = `parent-${randomUUID().slice(0, 8)}@example.tw`;
  const answer = await client.post<{ user: { id: string } }>("/sign-up/email", { email, password: "secret-pass-1", name });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status}`);
  return { client, uid: answer.body.user.id, email };
}

/** Request headers of a signed-in browser on the site (its cookies and Origin). */
export function browserHeaders(server: AuthTestServer, who: SignedIn): Record<string, string> {
  return {
    cookie: [...who.client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    origin: server.baseURL,
  };
}

/** The v0 multipart body the Firebase client and ours send. */
export function multipart(path: string, bytes: Buffer, metadata: Record<string, unknown> = {}, contentType = "image/png") {
  const boundary = `b${randomUUID().replace(/-/g, "")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify({ name: path, contentType, ...metadata })}\r\n` +
        `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return { body, headers: { "content-type": `multipart/related; boundary=${boundary}`, "x-goog-upload-protocol": "multipart" } };
}
