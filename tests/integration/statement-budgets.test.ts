// Statements per operation as a budget (issue 30): the SQL a sign-in and a session check send, counted at the
// driver on SQLite and PostgreSQL. Deterministic, unlike timings: a change that adds a query per request shows here.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type SQLite from "better-sqlite3";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, startSignIn } from "~tests/fixtures/reference-client";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { authorize, startAppSignInServer } from "./app-sign-in-fixtures";
import { verifiedAccount as verifiedAccountOf } from "./factories";

const password = "kite-river-7";

/**
 * The budgets: what these operations sent when the budget was set (docs/performance.md, *Third round*). A session
 * check reads the session and its user (the JWT plugin's `set-auth-jwt` header is off: no signing key read). A sign-in from a
 * browser that still holds a session also ends that one (four statements); one from a new browser records it and
 * mails the notice (the account's phone, for a text too, comes with its user row). The security events of one request
 * are one append to the security record (begin, read the chain's head, insert, move the head, commit: five
 * statements): a sign-in is one event, a sign-in from a new browser two (the sign-in and the new device) in one insert. The app's endpoints (*Fifth round*): a
 * token is read with its grant and the grant's session row, the account with its family claim, one statement each;
 * a refresh then writes the new tokens and consumes the presented one (two statements, provider-records.server.ts).
 * A password sign-in reads the typed address's stored hash once more, to begin the hash before the rest of the way
 * to the endpoint (decision 715): one statement more than when the budgets were set. A page load's own session read
 * (session-read.server.ts, every signed-in page) is one statement on both databases (*Seventeenth round*).
 */
const budget = { sessionCheck: 2, pageSessionRead: 1, signInKnownBrowser: 16, signInNewBrowser: 13, tokenRefresh: 4, userinfo: 2 };

describeEachDatabase("SQL statements per operation", (database) => {
  let server: AuthTestServer;
  const sent: string[] = [];
  beforeAll(async () => {
    const { handle } = database();
    // Every statement reaches the driver here: a run of a prepared statement on SQLite (BEGIN and COMMIT included;
    // the connection keeps its compiled statements, so a statement is counted each time it runs, not when it is
    // prepared), a query on a PostgreSQL client.
    if (handle.dialect === "sqlite") {
      const statement = Object.getPrototypeOf((handle.raw as SQLite.Database).prepare("select 1")) as SQLite.Statement;
      for (const method of ["run", "get", "all", "iterate"] as const) {
        const run = statement[method] as (...args: unknown[]) => unknown;
        vi.spyOn(statement, method).mockImplementation(function (this: SQLite.Statement, ...args: unknown[]) {
          sent.push(this.source);
          return run.apply(this, args);
        } as never);
      }
    } else {
      const query = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: Parameters<pg.Client["query"]>) {
        const config = args[0] as string | { text?: string };
        sent.push(typeof config === "string" ? config : (config.text ?? ""));
        return (query as (...all: unknown[]) => unknown).apply(this, args) as ReturnType<pg.Client["query"]>;
      });
    }
    server = await startAppSignInServer(database());
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  const counted = async (action: () => Promise<unknown>) => {
    sent.length = 0;
    await action();
    return [...sent];
  };

  const verifiedAccount = async (client: AuthTestClient) => (await verifiedAccountOf(server, { prefix: "budget", password, client })).email;

  it("keeps a session check, a page load's session read, a sign-in from a known browser and one from a new browser within their budgets", async () => {
    const client = server.client();
    const email = await verifiedAccount(client);
    // The outbox's poll would add its own statements to the counts.
    await server.service.mailSender.stop();
    // The first session check of a process makes the signing key of the session's JWT (once): not counted.
    await client.get("/get-session");

    const signInNew = await counted(async () => expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200));
    const signInKnown = await counted(async () => expect((await client.post("/sign-in/email", { email, password })).status).toBe(200));
    const sessionCheck = await counted(async () => expect((await client.get<{ user: { email: string } }>("/get-session")).body.user.email).toBe(email));
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const pageSessionRead = await counted(async () => expect((await server.service.readSession(new Headers({ cookie })))?.user.email).toBe(email));

    const report = JSON.stringify({ sessionCheck, pageSessionRead, signInKnown, signInNew }, null, 1);
    expect(sessionCheck.length, report).toBeLessThanOrEqual(budget.sessionCheck);
    expect(pageSessionRead.length, report).toBe(budget.pageSessionRead);
    expect(signInKnown.length, report).toBeLessThanOrEqual(budget.signInKnownBrowser);
    expect(signInNew.length, report).toBeLessThanOrEqual(budget.signInNewBrowser);
    // Counted at all: a counter that saw nothing would pass every budget.
    expect(sessionCheck.length).toBeGreaterThan(0);
  });

  it("keeps the app's token refresh and userinfo within their budgets", async () => {
    const client = server.client();
    expect((await client.post("/sign-up/email", { email: `budget-app-${randomUUID().slice(0, 8)}@example.tw`, password, name: "小明" })).status).toBe(200);
    await server.service.mailSender.stop();
    const app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
    const pending = await startSignIn(app, "tw.example.app:/callback");
    const outcome = await authorize(client, server, pending.url);
    if (!("left" in outcome)) throw new Error("the app's sign-in did not come back to the app");
    const tokens = await finishSignIn(app, outcome.left, pending);
    const refreshWith = async (refreshToken: string) => {
      const answer = await fetch(`${server.baseURL}/oidc/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: "app" }),
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { access_token: string; refresh_token: string };
    };
    // The first refresh of a process may sweep expired records (once per ten minutes): not counted.
    const first = await refreshWith(tokens.refresh_token!);

    let second = first;
    const tokenRefresh = await counted(async () => (second = await refreshWith(first.refresh_token)));
    const userinfo = await counted(async () => {
      const answer = await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${second.access_token}` } });
      expect(answer.status).toBe(200);
    });

    const report = JSON.stringify({ tokenRefresh, userinfo }, null, 1);
    expect(tokenRefresh.length, report).toBeLessThanOrEqual(budget.tokenRefresh);
    expect(userinfo.length, report).toBeLessThanOrEqual(budget.userinfo);
    expect(userinfo.length).toBeGreaterThan(0);
  });
});
