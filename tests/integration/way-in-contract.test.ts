import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { register } from "prom-client";
import { authEndpointFor, authEndpointNamed, waysIn, type AuthEndpoint } from "~/features/auth/index.server";
import type { WayInRow } from "~/features/auth/ways-in";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import {
  startAuthServer,
  type AuthTestClient,
  type AuthTestServer,
} from "./auth-server";
import { signedUpAccount } from "./factories";

/**
 * The contract of a way in (CONTRIBUTING.md, "Add a way in"): every row of every unit, walked through the live
 * service on both databases, does what its rules say. A wrong value in a row fails here, not only a missing one:
 * a loose `perIp`, `oneFactor: false` on a password, `audit: false` on a sign-in, `notice: false` on a change.
 *
 * The limits are small and ordered as in production (a sign-in stricter than a plain call, a text stricter than a
 * sign-in), so a row that names a looser limit than its kind allows lets one request too many through.
 */
const limits = {
  RATE_LIMIT_AUTH_PER_IP: "8/60",
  RATE_LIMIT_SIGN_IN_PER_IP: "4/60",
  RATE_LIMIT_SIGN_UP_PER_IP: "4/60",
  RATE_LIMIT_GUEST_PER_IP: "4/60",
  RATE_LIMIT_MAIL_PER_IP: "3/60",
  RATE_LIMIT_SMS_PER_IP: "2/60",
  RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "3/900",
  RATE_LIMIT_SIGN_UP_PER_ACCOUNT: "2/60",
  RATE_LIMIT_GUEST_UPGRADE_PER_ACCOUNT: "2/60",
  RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: "2/60",
  RATE_LIMIT_VERIFICATION_MAIL_PER_ACCOUNT: "2/60",
  RATE_LIMIT_SMS_PER_NUMBER: "2/60",
} as const;
const maxOf = (name: keyof typeof limits) => Number(limits[name].split("/")[0]);

/** Every row of every unit, by name, with the table's view of it (its `byRequest` variant aside). */
const rows = waysIn.flatMap((unit) =>
  Object.entries(unit.rows as Record<string, WayInRow>).map(
    ([name, rules]) => ({
      unit: unit.id,
      name,
      rules,
      row: authEndpointNamed(name)!,
    }),
  ),
);

/** The most requests per address a row of its kind may take in the window: a sign-in, a text, a mail, anything else. */
function perIpCeiling(rules: WayInRow): number {
  if (rules.path.includes("send-otp")) return maxOf("RATE_LIMIT_SMS_PER_IP");
  if (rules.botCheck && rules.session !== "creates")
    return maxOf("RATE_LIMIT_MAIL_PER_IP");
  // A provider's callback carries the provider's one-time code, not something to guess.
  if (rules.popupLanding) return maxOf("RATE_LIMIT_AUTH_PER_IP");
  if (rules.session === "creates" || rules.lockout || rules.oneFactor)
    return maxOf("RATE_LIMIT_SIGN_IN_PER_IP");
  return maxOf("RATE_LIMIT_AUTH_PER_IP");
}

const password = "lantern-harbour-9";
const address = (pattern: string) =>
  `/api/auth${pattern.replace(/:\w+/g, "dev")}`;

/** A body that names the row's identifier (the typed email or number), so the per-identifier count applies. */
const identifierBody = (by: string, value: string) =>
  by === "phone"
    ? { phoneNumber: value }
    : { email: value, name: "測試", password, redirectTo: "/" };

describeEachDatabase("the contract of every way in", (database) => {
  let server: AuthTestServer;
  let switchedOff: Set<string>;
  beforeAll(async () => {
    server = await startAuthServer(database(), { ...limits });
    switchedOff = new Set(
      (server.service.auth.options.disabledPaths ?? []) as string[],
    );
  });
  afterAll(async () => {
    await server.close();
  });
  const db = () => database().handle.db;
  const served = () => rows.filter(({ row }) => !switchedOff.has(row.path));

  async function signedUp(client: AuthTestClient = server.client()) {
    const { email, id } = await signedUpAccount(server, { prefix: "contract", name: "合約測試", password, client });
    await db().updateTable("user").set({ emailVerified: 1 }).where("id", "=", id).execute();
    return { email, client, userId: id };
  }

  it("refuses a foreign page's POST on every row (the Origin rule), and takes a provider's page only where the row says so", async () => {
    const wrong: string[] = [];
    for (const { name, rules } of rows.filter(({ rules }) =>
      rules.methods.includes("POST" as never),
    )) {
      const client = server.client({ origin: "https://attacker.example" });
      const answer = await client.request("POST", address(rules.path), {});
      if (
        answer.status !== 403 ||
        (answer.body as { code?: string }).code !== "auth/unauthorized-domain"
      )
        wrong.push(`${name}: ${answer.status}`);
      // Only a provider's callback takes a POST from the provider's page (Apple's form_post).
      if (rules.origin === "provider" && !rules.path.startsWith("/callback/"))
        wrong.push(`${name}: origin provider on a path that is no callback`);
    }
    expect(wrong).toEqual([]);
  });

  it("refuses the address past the limit its kind allows (429 with Retry-After), on every served row", async () => {
    const wrong: string[] = [];
    // The rows side by side (each its own address and path), the requests of one row one after another.
    await Promise.all(
      served().map(async ({ name, rules }) => {
        const client = server.client();
        const ceiling = perIpCeiling(rules);
        const method = rules.methods.includes("POST" as never) ? "POST" : "GET";
        let refusedAt = 0;
        let retryAfter: string | null = null;
        for (
          let attempt = 1;
          attempt <= ceiling + 1 && !refusedAt;
          attempt += 1
        ) {
          const answer = await client.request(
            method,
            address(rules.path),
            method === "POST" ? {} : undefined,
          );
          if (answer.status === 429)
            [refusedAt, retryAfter] = [
              attempt,
              answer.headers.get("retry-after"),
            ];
        }
        if (!refusedAt)
          wrong.push(
            `${name}: ${ceiling + 1} requests from one address, none refused (perIp ${rules.perIp})`,
          );
        else if (!retryAfter) wrong.push(`${name}: 429 without Retry-After`);
      }),
    );
    expect(wrong.sort()).toEqual([]);
  });

  it("counts per identifier where the row says so, by the identifier it names", async () => {
    const wrong: string[] = [];
    for (const { name, rules } of served().filter(
      ({ rules }) => rules.perIdentifier && rules.needs === "nothing",
    )) {
      const by = rules.perIdentifier ? rules.perIdentifier.by : "email";
      const value =
        by === "phone"
          ? `09${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`
          : `same-${randomUUID().slice(0, 8)}@example.tw`;
      const limit = rules.perIdentifier
        ? maxOf(rules.perIdentifier.limit as keyof typeof limits)
        : 0;
      const statuses: number[] = [];
      // Each from a new address: only the identifier's count can refuse.
      for (let attempt = 0; attempt <= limit; attempt += 1)
        statuses.push(
          (await server.client().post(rules.path, identifierBody(by, value)))
            .status,
        );
      // Refused by then at the latest (a resend pause may refuse sooner), though every request came from a new address.
      if (statuses.at(-1) !== 429)
        wrong.push(`${name} by ${by}: ${statuses.join(",")}`);
    }
    // Every row that sends a mail or a text to whoever asks counts per identifier too.
    for (const { name, rules } of rows)
      if (rules.botCheck && rules.session !== "creates" && !rules.perIdentifier)
        wrong.push(`${name}: sends to whoever asks, no per-identifier limit`);
    expect(wrong).toEqual([]);
  });

  /** A wrong secret for each row with a lockout: what a guesser sends. A new row with a lockout adds its recipe. */
  const wrongSecret: Record<
    string,
    (subject: {
      email: string;
      phone: string;
      client: AuthTestClient;
    }) => Promise<number>
  > = {
    signInEmail: async ({ email }) =>
      (
        await server
          .client()
          .post("/sign-in/email", { email, password: "not-the-password" })
      ).status,
    changePassword: async ({ client }) =>
      (
        await client.post("/change-password", {
          currentPassword: "not-the-password",
          newPassword: "harbour-lantern-10",
        })
      ).status,
    phoneNumberVerify: async ({ phone }) =>
      (
        await server
          .client()
          .post("/phone-number/verify", { phoneNumber: phone, code: "000000" })
      ).status,
    // A wrong mailed code for the typed address (a code exists or not: the answer is the same).
    signInEmailOtp: async ({ email }) =>
      (
        await server
          .client()
          .post("/sign-in/email-otp", { email, otp: "000000" })
      ).status,
  };

  it("locks by the identifier the row names once its wrong secrets reach the limit, a texted code's number too", async () => {
    const failures = maxOf("RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT");
    // Whatever proves a password or a texted code is guessable: it locks (a row cannot say `lockout: false` there).
    const guessable = rows.filter(
      ({ rules, row }) =>
        !switchedOff.has(row.path) &&
        rules.proves &&
        rules.proves.some((proof) => proof === "pwd" || proof === "sms"),
    );
    expect(
      guessable.filter(({ rules }) => !rules.lockout).map(({ name }) => name),
    ).toEqual([]);
    // So is whatever signs in on a secret it can answer "wrong" to (a mailed code proves no `amr` value, yet locks).
    const answersWrongSecret = rows.filter(
      ({ rules, row }) =>
        !switchedOff.has(row.path) &&
        rules.session === "creates" &&
        Object.values(rules.errors ?? {}).some((code) =>
          ["auth/invalid-credential", "auth/invalid-verification-code"].includes(code),
        ),
    );
    expect(
      answersWrongSecret.filter(({ rules }) => !rules.lockout).map(({ name }) => name),
    ).toEqual([]);
    const locking = rows.filter(
      ({ rules, row }) => rules.lockout && !switchedOff.has(row.path),
    );
    expect(
      locking.map(({ name }) => name).filter((name) => !wrongSecret[name]),
    ).toEqual([]);
    const wrong: string[] = [];
    for (const { name } of locking) {
      const { email, client } = await signedUp();
      const phone = `09${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      // A texted code exists, so a wrong one is a wrong secret (not "no code").
      if (name === "phoneNumberVerify")
        expect(
          (
            await server
              .client()
              .post("/phone-number/send-otp", { phoneNumber: phone })
          ).status,
        ).toBe(200);
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= failures; attempt += 1)
        statuses.push(await wrongSecret[name]!({ email, phone, client }));
      if (statuses.at(-1) !== 429 || statuses.slice(0, -1).includes(429))
        wrong.push(`${name}: ${statuses.join(",")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("asks a second step after a one-factor way in on an account with two-step sign-in: no session before the code", async () => {
    const { email, client } = await signedUp();
    const enabled = await client.post<{ totpURI: string }>(
      "/two-factor/enable",
      { password },
    );
    const code = await authenticatorApp(enabled.body.totpURI)();
    expect(
      (await client.post("/two-factor/verify-totp", { code })).status,
    ).toBe(200);
    // The password's row: whatever its `oneFactor` says, a password is one factor.
    const browser = server.client();
    const signIn = await browser.post("/sign-in/email", { email, password });
    expect(signIn.body).toMatchObject({ twoFactorRedirect: true });
    expect(await browser.me()).toBeNull();
    // Every row that makes a session from one proof (a password, a texted code, a link, a provider) says so.
    const oneProof = rows.filter(
      ({ rules }) =>
        rules.session === "creates" &&
        rules.proves !== false &&
        !rules.proves.includes("mfa" as never),
    );
    expect(
      oneProof.filter(({ rules }) => !rules.oneFactor).map(({ name }) => name),
    ).toEqual([]);
    // A sign-in on a guessable secret (its row locks) is one factor unless it proves two (`mfa`), whatever its `amr`.
    const lockedSignIns = rows.filter(
      ({ rules }) =>
        rules.session === "creates" &&
        rules.lockout &&
        !(rules.proves && rules.proves.includes("mfa" as never)),
    );
    expect(
      lockedSignIns.filter(({ rules }) => !rules.oneFactor).map(({ name }) => name),
    ).toEqual([]);
    for (const name of [
      "signInEmail",
      "emailLinkSignIn",
      "callbackId",
      "phoneNumberVerify",
    ])
      expect(authEndpointNamed(name)?.oneFactor, name).toBe(true);
  });

  it("audits every sign-in in the security record once and counts it once in the metrics", async () => {
    const signIns = served().filter(({ rules }) => rules.session === "creates");
    // A row that makes a session writes it down and, when it signs someone in, counts it.
    expect(
      signIns.filter(({ rules }) => !rules.audit).map(({ name }) => name),
    ).toEqual([]);
    const { email, userId } = await signedUp();
    const counted = async () =>
      (
        (await register.getSingleMetric("site_sign_ins_total")?.get())
          ?.values ?? []
      ).find(
        (value) =>
          value.labels.way === "/sign-in/email" &&
          value.labels.outcome === "success",
      )?.value ?? 0;
    const before = await counted();
    const browser = server.client();
    expect(
      (await browser.post("/sign-in/email", { email, password })).status,
    ).toBe(200);
    const audit = authEndpointNamed("signInEmail")?.audit;
    const recorded = await db()
      .selectFrom("security_record")
      .select(["event", "outcome", "ip"])
      .where("user_id", "=", userId)
      .where("ip", "=", browser.ip)
      .execute();
    expect(recorded.filter((record) => record.event !== "new-device")).toEqual([
      { event: "sign-in", outcome: "success", ip: browser.ip },
    ]);
    expect(audit).toBe("sign-in");
    expect((await counted()) - before).toBe(1);
    // And what counts as a sign-in makes a session (so the presented one ends and the sign-in is audited).
    expect(
      rows.filter(({ rules }) => rules.metric === "sign-in" && rules.session !== "creates").map(({ name }) => name),
    ).toEqual([]);
    // The sign-ins by a proof of their own are counted (a texted code's among them).
    for (const { name, rules } of signIns.filter(
      ({ rules }) => rules.proves !== false || rules.oneFactor,
    ))
      expect(rules.metric, name).toBe("sign-in");
  });

  it("refuses an old session on every row marked recentSignIn", async () => {
    const { email, client, userId } = await signedUp();
    const then = new Date(Date.now() - 11 * 60 * 1000);
    await db()
      .updateTable("session")
      .set({
        createdAt:
          database().handle.dialect === "postgres"
            ? then
            : (then.toISOString() as unknown as Date),
      })
      .where("userId", "=", userId)
      .execute();
    const wrong: string[] = [];
    for (const { name, row } of served().filter(
      ({ rules }) => rules.recentSignIn,
    )) {
      const answer = await client.post(row.path, {});
      const code = (answer.body as { code?: string }).code;
      const guarded =
        answer.status === 403 && code === "auth/requires-recent-login";
      const asksPassword =
        typeof row.recentSignIn === "object" &&
        code === "auth/missing-password";
      if (!guarded && !asksPassword)
        wrong.push(`${name}: ${answer.status} ${code}`);
    }
    expect(wrong).toEqual([]);
    // A change that adds or removes a way in of the signed-in account is one of them.
    for (const unit of waysIn)
      for (const name of [
        ...unit.accountCenter.adds,
        ...unit.accountCenter.removes,
      ]) {
        const row = authEndpointNamed(name)!;
        const rules: Partial<AuthEndpoint> = row.byRequest
          ? authEndpointFor({
              path: row.path,
              body: { updatePhoneNumber: true },
            })!
          : row;
        expect(rules.recentSignIn, `${unit.id} ${name}`).toBeTruthy();
      }
    expect(email).toContain("@");
  });

  it("sends one notice through the outbox for a change the row gives notice of", async () => {
    const { email, client } = await signedUp();
    const before = await db()
      .selectFrom("mail_outbox")
      .select("id")
      .where("recipient", "=", email)
      .where("subject", "like", "%安全通知%")
      .execute();
    expect(
      (
        await client.post("/change-password", {
          currentPassword: password,
          newPassword: "harbour-lantern-10",
        })
      ).status,
    ).toBe(200);
    const after = await db()
      .selectFrom("mail_outbox")
      .select("subject")
      .where("recipient", "=", email)
      .where("subject", "like", "%安全通知%")
      .execute();
    expect(after.length - before.length).toBe(1);
    expect(authEndpointNamed("changePassword")?.notice).toBe(
      "password-changed",
    );
    // Every change of a signed-in account's ways in or password gives notice (by the table's hook or its endpoint).
    const changes = rows.filter(
      ({ name, rules }) =>
        waysIn.some((unit) =>
          [...unit.accountCenter.adds, ...unit.accountCenter.removes].includes(
            name,
          ),
        ) ||
        (rules.newPassword && rules.session !== "creates"),
    );
    const silent = changes.filter(
      ({ rules }) =>
        !rules.notice && !(rules.byRequest && rules.byRequest.rules.notice),
    );
    expect(silent.map(({ name }) => name)).toEqual([]);
  });
});
