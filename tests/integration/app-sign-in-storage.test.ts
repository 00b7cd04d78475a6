import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { setUserRole } from "~/features/auth/index.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, startSignIn } from "~tests/fixtures/reference-client";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { authorize, decide, partnerSecret, startAppSignInServer } from "./app-sign-in-fixtures";
import { appSignIn, signedUpAccount } from "./factories";
import { multipart, png } from "./storage-fixtures";

const password = "kite-river-7";
const partnerRedirect = "https://partner.example.test/callback";

/**
 * Storage takes an app's access token only for what its grant holds, on SQLite and PostgreSQL: the `storage`
 * scope opens the account's own folder, `storage:editor` an editor's folders as well; only a first-party app may
 * ask for either, and a third-party app's token is refused by storage whatever its scope.
 */
describeEachDatabase("app sign-in: storage only for what was granted", (database) => {
  let server: AuthTestServer;
  let app: Configuration;
  let partner: Configuration;

  beforeAll(async () => {
    server = await startAppSignInServer(database());
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
    partner = await discoverProvider({ issuer: server.baseURL, clientId: "partner", clientSecret: partnerSecret });
  });
  afterAll(async () => {
    await server.close();
  });

  async function parent() {
    const { client, email, id } = await signedUpAccount(server, { prefix: "storage", password });
    return { client, email, uid: id };
  }

  const appToken = async (browser: AuthTestClient, scope: string) => (await appSignIn(app, server, browser, { parameters: { scope } })).access_token;

  const call = async (token: string, method: string, objectPath: string) => {
    const base = `${server.baseURL}/v0/b/default/o`;
    if (method === "POST") {
      const { body, headers } = multipart(objectPath, await png());
      return (await fetch(`${base}?name=${encodeURIComponent(objectPath)}`, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body })).status;
    }
    const url = method === "LIST" ? `${base}?prefix=${encodeURIComponent(objectPath)}` : `${base}/${encodeURIComponent(objectPath)}`;
    return (await fetch(url, { method: method === "LIST" ? "GET" : method, headers: { authorization: `Bearer ${token}` } })).status;
  };

  it("a first-party token without the storage scope is refused by storage: list, upload, delete", async () => {
    const { client, uid } = await parent();
    const token = await appToken(client, "openid email offline_access");
    expect(await call(token, "LIST", `users/${uid}/`)).toBe(401);
    expect(await call(token, "POST", `users/${uid}/a.png`)).toBe(401);
    expect(await call(token, "DELETE", `users/${uid}/a.png`)).toBe(401);

    const granted = await appToken(client, "openid storage");
    expect(await call(granted, "POST", `users/${uid}/a.png`)).toBe(200);
    expect(await call(granted, "LIST", `users/${uid}/`)).toBe(200);
    expect(await call(granted, "DELETE", `users/${uid}/a.png`)).toBe(204);
  });

  it("an editor's app token writes to the blog only when its grant carries storage:editor", async () => {
    const { client, email } = await parent();
    expect(await setUserRole(database().handle, email, "editor")).toBe(1);
    const filesOnly = await appToken(client, "openid storage");
    expect(await call(filesOnly, "POST", `blog/${randomUUID().slice(0, 6)}.png`)).toBe(403);
    const editor = await appToken(client, "openid storage storage:editor");
    expect(await call(editor, "POST", `blog/${randomUUID().slice(0, 6)}.png`)).toBe(200);
  });

  it("a third-party app may not ask for storage, and its token is refused by storage", async () => {
    const { client, uid } = await parent();
    const asked = await startSignIn(partner, partnerRedirect, { scope: "openid storage" });
    const refused = await authorize(client, server, asked.url);
    expect("left" in refused && refused.left.searchParams.get("error")).toBe("invalid_scope");

    const pending = await startSignIn(partner, partnerRedirect, { scope: "openid" });
    const screen = await authorize(client, server, pending.url);
    const action = /action="([^"]+)"/.exec(String("page" in screen && screen.page.body))![1]!;
    const allowed = await decide(client, server, action, "allow");
    if (!("left" in allowed)) throw new Error("no code after consent");
    const token = (await finishSignIn(partner, allowed.left, pending)).access_token;
    expect(await call(token, "LIST", `users/${uid}/`)).toBe(401);
    expect(await call(token, "POST", `users/${uid}/b.png`)).toBe(401);
    expect(await call(token, "DELETE", `users/${uid}/b.png`)).toBe(401);
  });
});
