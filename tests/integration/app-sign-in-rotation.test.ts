import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Configuration } from "openid-client";
import { getLogger } from "~/services/logger.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider } from "~tests/fixtures/reference-client";
import type { AuthTestServer } from "./auth-server";
import { startAppSignInServer } from "./app-sign-in-fixtures";
import { appSignIn, signedUpAccount } from "./factories";

const password = "kite-river-7";

interface TokenAnswer {
  status: number;
  body: { access_token?: string; refresh_token?: string; expires_in?: number; error?: string };
}

/**
 * Refresh-token rotation under races and lost answers, on SQLite and PostgreSQL: presenters of the same refresh
 * token at the same moment never fork the family (at most one successor, and a loser ends the family); a client
 * whose answer was lost gets the same answer again while the successor is unused; any other reuse ends the family
 * and leaves an audit line.
 */
describeEachDatabase("app sign-in: refresh rotation", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    server = await startAppSignInServer(database());
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedInApp() {
    const { client } = await signedUpAccount(server, { prefix: "rotation", password });
    const tokens = await appSignIn(app, server, client);
    return { refreshToken: tokens.refresh_token!, accessToken: tokens.access_token };
  }

  const refreshWith = async (refreshToken: string): Promise<TokenAnswer> => {
    const response = await fetch(`${server.baseURL}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: "app" }),
    });
    return { status: response.status, body: (await response.json()) as TokenAnswer["body"] };
  };
  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  it("eight presenters of one refresh token at once: never two successors, and a refused presenter ends the family", async () => {
    for (let round = 0; round < 3; round += 1) {
      const { refreshToken } = await signedInApp();
      const answers = await Promise.all(Array.from({ length: 8 }, () => refreshWith(refreshToken)));
      const accepted = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status !== 200);
      // The same answer may be given again (the grace for a lost answer), but the family never forks.
      expect(new Set(accepted.map((answer) => answer.body.refresh_token)).size).toBeLessThanOrEqual(1);
      for (const answer of refused) expect([answer.status, answer.body.error]).toEqual([400, "invalid_grant"]);
      if (refused.length > 0 && accepted.length > 0) {
        // The second presenter ended the whole family: the winner's new tokens are dead too.
        expect((await refreshWith(accepted[0]!.body.refresh_token!)).body.error).toBe("invalid_grant");
        expect(await userinfoStatus(accepted[0]!.body.access_token!)).toBe(401);
      }
    }
  });

  it("a lost answer: the previous refresh token gets the same pair again while the successor is unused", async () => {
    const { refreshToken } = await signedInApp();
    const first = await refreshWith(refreshToken);
    expect(first.status).toBe(200);
    // The answer never reached the app; it tries again with the token it still holds.
    const again = await refreshWith(refreshToken);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(first.body.refresh_token);
    expect(again.body.access_token).toBe(first.body.access_token);
    expect(again.body.expires_in).toBeLessThanOrEqual(first.body.expires_in!);
    expect(await userinfoStatus(again.body.access_token!)).toBe(200);
    // The app goes on with the successor as usual.
    const next = await refreshWith(again.body.refresh_token!);
    expect(next.status).toBe(200);
    expect(await userinfoStatus(next.body.access_token!)).toBe(200);
  });

  it("a replay once the successor was used ends the whole family and writes an audit line", async () => {
    const warn = vi.spyOn(getLogger(), "warn");
    try {
      const { refreshToken } = await signedInApp();
      const second = await refreshWith(refreshToken);
      const third = await refreshWith(second.body.refresh_token!);
      expect(third.status).toBe(200);
      const replay = await refreshWith(refreshToken);
      expect([replay.status, replay.body.error]).toEqual([400, "invalid_grant"]);
      // The thief's replay ended the grant: the legitimate holder's newer tokens are refused too.
      expect((await refreshWith(third.body.refresh_token!)).body.error).toBe("invalid_grant");
      expect(await userinfoStatus(third.body.access_token!)).toBe(401);
      const audited = warn.mock.calls.filter(([fields]) => (fields as { authEvent?: string }).authEvent === "app-refresh-token-reuse");
      expect(audited).toHaveLength(1);
      expect(audited[0]![0]).toMatchObject({ outcome: "refused", clientId: "app", userId: expect.any(String) });
      expect(JSON.stringify(audited[0]![0])).not.toContain(refreshToken);
      // The same event lands once in the account's security record, beside the app sign-in that began it.
      const userId = (audited[0]![0] as { userId: string }).userId;
      const recorded = await database().handle.db.selectFrom("security_record").select(["event", "outcome"]).where("user_id", "=", userId).orderBy("seq").execute();
      expect(recorded.filter((row) => row.event === "app-refresh-token-reuse")).toEqual([{ event: "app-refresh-token-reuse", outcome: "refused" }]);
      expect(recorded.filter((row) => row.event === "app-grant")).toHaveLength(1);
      expect(JSON.stringify(recorded)).not.toContain(refreshToken);
    } finally {
      warn.mockRestore();
    }
  });
});
