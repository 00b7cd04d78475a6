import { describe, expect, it } from "vitest";
import { authEndpointFor, authEndpointNamed, authEndpoints, waysIn } from "./auth-endpoints";
import { wayIn, type WayInRow, type WayInRules } from "./way-in";
import type { WayInServer } from "./way-in-plugins.server";
import { eventLabel } from "~/features/security-record/event-labels";

/** A row that decides every rule; each case below leaves one out. */
const decided: WayInRow = {
  path: "/example/sign-in",
  methods: ["POST"],
  session: "creates",
  needs: "nothing",
  oneFactor: true,
  perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
  origin: "site",
  lockout: "phone",
  metric: "sign-in",
  perIdentifier: { limit: "RATE_LIMIT_SMS_PER_NUMBER", by: "phone" },
  recentSignIn: false,
  audit: "sign-in",
  notice: false,
  botCheck: true,
  proves: ["sms"],
};
const without = <K extends keyof WayInRules>(rule: K): Omit<WayInRow, K> => {
  const { [rule]: _left, ...rest } = decided;
  return rest;
};
const unit = (row: WayInRow) => wayIn({ id: "example", identifies: "phone", screens: [], accountCenter: { label: "例子", listed: false, adds: [], removes: [] }, rows: { row } });

describe("a way in", () => {
  it("fails typecheck when a row leaves out any rule (each `@ts-expect-error` below is checked by `npm run typecheck`)", () => {
    // @ts-expect-error one factor or not (silent gap 1: an SMS sign-in without two-step sign-in)
    unit(without("oneFactor"));
    // @ts-expect-error the per-address limit (silent gap 2)
    unit(without("perIp"));
    // @ts-expect-error the per-identifier limit, and whose (silent gap 2: the limiter read `body.email`)
    unit(without("perIdentifier"));
    // @ts-expect-error recent sign-in (silent gap 3)
    unit(without("recentSignIn"));
    // @ts-expect-error the audit line (silent gap 2)
    unit(without("audit"));
    // @ts-expect-error the notice (silent gaps 3 and 4)
    unit(without("notice"));
    // @ts-expect-error whose pages may post to it (login CSRF: Better Auth checks the Origin on its core routes only)
    unit(without("origin"));
    // @ts-expect-error the lockout and its identifier (the lockout read only `body.email`: a way in by phone never locked)
    unit(without("lockout"));
    // @ts-expect-error the sign-in metric (phone sign-ins were not counted)
    unit(without("metric"));
    // @ts-expect-error session creation
    unit(without("session"));
    // @ts-expect-error the bot check (item 7: a sign-up, a guest, a text or a mail to whoever asks)
    unit(without("botCheck"));
    // @ts-expect-error what the session proves (the `amr` an app reads: a texted code is not a password)
    unit(without("proves"));
    // @ts-expect-error a variant of the row decides every rule again (silent gap 3: attaching vs signing in)
    unit({ ...decided, byRequest: { when: () => true, rules: { session: "none", needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, audit: false, notice: false, botCheck: false, proves: false } } });
    // @ts-expect-error a per-identifier limit names what it counts
    unit({ ...decided, perIdentifier: { limit: "RATE_LIMIT_SMS_PER_NUMBER" } });
    expect(unit(decided).rows.row.oneFactor).toBe(true);
  });

  it("fails typecheck when a server twin serves a way in that is not a unit", () => {
    // @ts-expect-error a twin of a way in missing from `waysIn` (a forgotten twin leaves its rows without live
    // endpoints instead: tests/integration/auth-endpoints.test.ts)
    const stranger: WayInServer = { unit: { id: "carrierPigeon" }, plugins: () => ({ plugins: [] }) };
    expect(stranger.unit.id).toBe("carrierPigeon");
  });

  it("brings every row of every unit into the endpoint table", () => {
    const tablePaths = new Set(authEndpoints.map((row) => row.path));
    for (const unit of waysIn) for (const row of Object.values(unit.rows)) expect(tablePaths.has(row.path), row.path).toBe(true);
  });

  it("adds and removes itself on a signed-in account only behind recent sign-in and with a notice", () => {
    for (const unit of waysIn) {
      for (const name of [...unit.accountCenter.adds, ...unit.accountCenter.removes]) {
        const row = authEndpointNamed(name);
        // The phone's verify endpoint adds a number when its body attaches it to the account.
        const endpoint = row?.byRequest ? authEndpointFor({ path: row.path, body: { updatePhoneNumber: true } }) : row;
        expect(endpoint?.recentSignIn, `${unit.id} ${name}`).toBeTruthy();
        expect(endpoint?.audit, `${unit.id} ${name}`).toBeTruthy();
      }
    }
  });

  it("holds the phone's verify endpoint to the rules of what the request does", () => {
    const signingIn = authEndpointFor({ path: "/phone-number/verify", body: { phoneNumber: "+886912345678", code: "123456" } });
    const attaching = authEndpointFor({ path: "/phone-number/verify", body: { phoneNumber: "+886912345678", code: "123456", updatePhoneNumber: true } });
    expect(signingIn).toMatchObject({ session: "creates", oneFactor: true, audit: "phone-sign-in" });
    expect(signingIn?.recentSignIn).toBeUndefined();
    expect(attaching).toMatchObject({ session: "none", recentSignIn: true, audit: "phone-number-added" });
    expect(attaching?.oneFactor).toBeUndefined();
  });

  it("asks the bot check before whatever makes an account or sends a mail or a text to whoever asks", () => {
    const checked = authEndpoints.filter((row) => row.botCheck).map((row) => row.path);
    // A new way in's own senders join these (its rows decide `botCheck`, typecheck asks).
    expect(checked).toEqual(
      expect.arrayContaining(["/email-link/request", "/guest/upgrade", "/phone-number/send-otp", "/request-password-reset", "/send-verification-email", "/sign-in/anonymous", "/sign-up/email"]),
    );
  });

  it("names every audited event in plain words for the parent's activity list", () => {
    const events = authEndpoints.flatMap((row) => [row.audit, row.byRequest?.rules.audit]).filter((event): event is string => Boolean(event));
    expect(events.filter((event) => eventLabel(event) === event)).toEqual([]);
  });

  it("counts texts per typed number, not per `body.email`", () => {
    expect(authEndpointFor({ path: "/phone-number/send-otp" })).toMatchObject({ perIp: "RATE_LIMIT_SMS_PER_IP", perAccount: "RATE_LIMIT_SMS_PER_NUMBER", perAccountBy: "phone-number" });
  });
});
