import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { isEditor, setUserRole } from "~/features/auth/index.server";
import { promoteEditors } from "~/features/auth/roles.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";

const password = "tiger-lantern-42";
const tokenFrom = (link: string) => new URL(link).searchParams.get("token") ?? "";

describeEachDatabase("editor role", (database) => {
  const editorEmail = `editor-${randomUUID().slice(0, 8)}@example.tw`;
  let server: AuthTestServer;
  const roleOf = async (email: string) =>
    (await database().handle.db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirstOrThrow()).role;

  beforeAll(async () => {
    server = await startAuthServer(database(), { EDITOR_EMAILS: `someone@example.tw, ${editorEmail.toUpperCase()}` });
  });
  afterAll(async () => {
    await server.close();
  });

  it("makes an EDITOR_EMAILS account an editor only once its email is verified", async () => {
    const client = server.client();
    expect((await client.post("/sign-up/email", { email: editorEmail, password, name: "編輯" })).status).toBe(200);
    expect(await roleOf(editorEmail)).toBe("user");

    const mail = await server.latestMail(editorEmail, /驗證/);
    const link = mail.links.find((candidate) => candidate.includes("/verify-email")) ?? "";
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(tokenFrom(link))}`)).status).toBe(200);
    expect(await roleOf(editorEmail)).toBe("editor");
  });

  it("never takes a role from a sign-up body, and a plain account stays a user", async () => {
    const email = `user-${randomUUID().slice(0, 8)}@example.tw`;
    await server.client().post("/sign-up/email", { email, password, name: "家長", role: "editor" });
    expect(await roleOf(email)).toBe("user");
    const plain = `user-${randomUUID().slice(0, 8)}@example.tw`;
    expect((await server.client().post("/sign-up/email", { email: plain, password, name: "家長" })).status).toBe(200);
    expect(await roleOf(plain)).toBe("user");
    expect(await promoteEditors(database().handle, [plain])).toBe(0);
  });

  it("sets and clears a role by email (the user:role command)", async () => {
    const email = `user-${randomUUID().slice(0, 8)}@example.tw`;
    await server.client().post("/sign-up/email", { email, password, name: "家長" });
    expect(await setUserRole(database().handle, ` ${email.toUpperCase()} `, "editor")).toBe(1);
    expect(isEditor({ role: await roleOf(email) })).toBe(true);
    expect(await setUserRole(database().handle, email, "user")).toBe(1);
    expect(isEditor({ role: await roleOf(email) })).toBe(false);
    expect(await setUserRole(database().handle, "nobody@example.tw", "editor")).toBe(0);
  });
});
