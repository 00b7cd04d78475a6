import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const password = "kite-river-7";
const newEmail = () => `boundary-${randomUUID().slice(0, 8)}@example.tw`;

/**
 * The sign-in layer's body boundary under the bodies the hostile-request fuzzer sends: each is a client's mistake,
 * so each answers 400 with `{ code, message }` in Chinese and changes nothing — never a 500 (a body that is not an
 * object once reached a rule that read its fields; a name that is not text reached the database, which SQLite
 * refused and PostgreSQL stored as `{"a"}`; PostgreSQL refuses NUL in text).
 */
describeEachDatabase("sign-in layer body boundary", (database) => {
  let server: AuthTestServer;
  let client: AuthTestClient;

  beforeAll(async () => {
    server = await startAuthServer(database(), {
      RATE_LIMIT_SIGN_UP_PER_IP: "1000/60",
      RATE_LIMIT_AUTH_PER_IP: "100000/60",
    });
    client = server.client();
    expect((await client.post("/sign-up/email", { email: newEmail(), password, name: "原本的名字" })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
  });

  function expectRefused(answer: { status: number; body: unknown }, label: string) {
    expect(answer.status, label).toBe(400);
    expect(answer.body, label).toMatchObject({ code: expect.stringMatching(/^auth\//), message: expect.stringMatching(/\p{Script=Han}/u) });
  }

  const notObjects = ['"名字"', "1", "null", "true", "[]", '[{"name":"小明"}]'];
  const namesNotText: unknown[] = [null, 7, true, [], ["小明"], {}, { a: 1 }, { toString: 1 }];

  it.each(notObjects)("refuses the update-user body %s", async (raw) => {
    expectRefused(await client.request("POST", "/api/auth/update-user", raw), raw);
    expect(await client.me()).toMatchObject({ displayName: "原本的名字" });
  });

  it("refuses a name that is not text on update-user", async () => {
    for (const name of namesNotText) {
      const answer = await client.post("/update-user", { name });
      expectRefused(answer, JSON.stringify(name));
      expect(answer.body).toMatchObject({ code: "auth/invalid-display-name" });
    }
    expect(await client.me()).toMatchObject({ displayName: "原本的名字" });
  });

  it("refuses NUL and other control characters in any field of any endpoint", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["/update-user", { image: "\u0000" }],
      ["/update-user", { name: "小明", extra: "a\u0000b" }],
      ["/update-user", { "na\u0000me": "小明" }],
      ["/sign-up/email", { email: newEmail(), password: `${password}\u0000`, name: "小明" }],
      ["/sign-up/email", { email: `\u0007${newEmail()}`, password, name: "小明" }],
      ["/sign-in/email", { email: `a\u0000${newEmail()}`, password }],
      ["/email-link/request", { email: `${newEmail()}\u0000` }],
      ["/request-password-reset", { email: `${newEmail()}\u0001` }],
      ["/change-password", { currentPassword: password, newPassword: `new-${password}\u0000` }],
    ];
    for (const [path, body] of cases) expectRefused(await client.post(path, body), `${path} ${JSON.stringify(body)}`);
    expectRefused(await client.get("/verify-email?token=%00"), "verify-email token");
    expect(await client.me()).toMatchObject({ displayName: "原本的名字" });
  });

  it("still takes tabs and line breaks where text allows them, and ordinary updates", async () => {
    // A password with a tab and a line break is read (and found wrong), not refused at the boundary.
    expect((await server.client().post("/sign-in/email", { email: newEmail(), password: "kite\triver\n7" })).status).toBe(401);
    expect((await client.post("/update-user", { name: "小明" })).status).toBe(200);
    expect(await client.me()).toMatchObject({ displayName: "小明" });
    expect((await client.post("/update-user", { name: "原本的名字", image: null })).status).toBe(200);
  });
});
