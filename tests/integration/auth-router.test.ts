// Better Auth's router kept between requests (decision 704): one router serves every request, and the answers are
// Better Auth's own (sessions, the origin check, concurrent requests keep their own context).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { authRouterBuilds, contextIsFixed } from "~/features/auth/auth-router.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";

const password = "kite-river-7";
const newEmail = () => `router-${randomUUID().slice(0, 8)}@example.tw`;

describeEachDatabase("Better Auth's router kept between requests", (database) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  it("builds one router for every request and keeps each request's session its own", async () => {
    const before = authRouterBuilds();
    const people = Array.from({ length: 6 }, () => ({ client: server.client(), email: newEmail() }));
    // Concurrent sign-ups through the one router: each browser gets its own session and sees its own account.
    const signUps = await Promise.all(people.map(({ client, email }) => client.post("/sign-up/email", { email, password, name: "小明" })));
    expect(signUps.map((answer) => answer.status)).toEqual(people.map(() => 200));
    const sessions = await Promise.all(people.map(({ client }) => client.get<{ user: { email: string } }>("/get-session")));
    expect(sessions.map((answer) => answer.body.user.email)).toEqual(people.map(({ email }) => email));
    // A stranger without a cookie has no session; a foreign origin is still refused by Better Auth's origin check.
    expect((await server.client().get("/get-session")).body).toBeNull();
    const foreign = await server.client({ origin: "https://evil.example" }).post("/sign-in/email", { email: people[0]!.email, password, callbackURL: "https://evil.example/" });
    expect(foreign.status).toBe(403);
    // Fifteen requests, one router: this server's first request built it.
    expect(authRouterBuilds() - before).toBe(1);
  });
});

it("keeps the router only when no request can change Better Auth's context", () => {
  const fixed = { baseURL: "https://example.tw", trustedOrigins: ["https://example.tw"], account: { accountLinking: { trustedProviders: ["google"] } } };
  expect(contextIsFixed(fixed as never)).toBe(true);
  expect(contextIsFixed({ ...fixed, trustedOrigins: () => [] } as never)).toBe(false);
  expect(contextIsFixed({ ...fixed, baseURL: undefined } as never)).toBe(false);
  expect(contextIsFixed({ ...fixed, baseURL: { allowedHosts: ["example.tw"] } } as never)).toBe(false);
  expect(contextIsFixed({ ...fixed, account: { accountLinking: { trustedProviders: () => [] } } } as never)).toBe(false);
});
