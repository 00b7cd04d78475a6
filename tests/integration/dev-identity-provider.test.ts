import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";

// The development identity provider (server/dev-identity-provider.ts) on a client's mistakes: an interaction it
// never started answers 404 (a page, never a stack), and nothing but JSON log lines reaches stdout or stderr.
describe("the development identity provider on unknown interactions", () => {
  let database: TestDatabase;
  let server: AuthTestServer;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startAuthServer(database);
    expect(server.service.devIdentityProvider).toBeDefined();
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it("answers 404 to GET and POST of an unknown interaction, with no stack printed", async () => {
    const printed: string[] = [];
    const keep = (chunk: unknown) => void printed.push(String(chunk));
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (keep(chunk), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (keep(chunk), true));
    try {
      const answers = [
        await fetch(`${server.baseURL}/dev-oidc/interaction/unknown-uid`),
        await fetch(`${server.baseURL}/dev-oidc/interaction/unknown-uid`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40b.tw" }),
        await fetch(`${server.baseURL}/dev-oidc/interaction/unknown-uid`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
        await fetch(`${server.baseURL}/dev-oidc/interaction/unknown-uid`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        const text = await answer.text();
        expect(text).toContain("登入連結已失效");
        expect(text).not.toMatch(/ at |Error/);
      }
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    const notJson = printed.filter((line) => line.trim() && !line.trim().startsWith("{") && !line.includes("Unsupported runtime"));
    expect(notJson).toEqual([]);
    expect(printed.join("")).not.toMatch(/ERR_HTTP_HEADERS_SENT|\n\s+at /);
  });
});
