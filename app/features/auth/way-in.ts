import type { AuthEndpoint, RateLimitName } from "./auth-endpoints";

/**
 * A way in (email and password, a social provider, a guest, a passkey, an emailed link, a phone number) is one
 * unit: one module (`ways-in/<name>/<name>.ts`) that says what identifies the person, which endpoints it brings and, for each
 * of them, every rule of the sign-in layer. The rules have no defaults: a row that leaves one out fails typecheck,
 * so a new way in cannot forget its limits, its audit line, its notice, its bot check or that it proves only one factor
 * (CONTRIBUTING.md, "Add a way in"). The endpoint table (auth-endpoints.ts) is built from the units' rows.
 */

/** Who a request of a way in is about, and so what its per-identifier limit counts. */
export type Identifier = "email" | "phone" | "signed-in-account";

/**
 * The security notice a row's success gives rise to: one the table's hook sends (account-notices.server.ts), or
 * `{ byEndpoint }`: the unit's own endpoint sends it in the transaction of the change (its test proves it).
 */
export type WayInNotice = NonNullable<AuthEndpoint["notice"]> | { byEndpoint: string };

/** The decisions every row of a way in makes. `false` is a decision too ("no audit line here"), never a default. */
export interface WayInRules {
  /** What the request does to the browser's session (AuthEndpoint.session). */
  session: AuthEndpoint["session"];
  /** Which session it needs. */
  needs: AuthEndpoint["needs"];
  /** It proves one factor: with two-step sign-in on, the code is asked before any session (two-step.server.ts). */
  oneFactor: boolean;
  /** The per-address limit (a RATE_LIMIT_* variable). */
  perIp: RateLimitName;
  /**
   * Whose pages may POST to it (auth-origin.server.ts, before any plugin runs): `site` (this site's own; a foreign
   * Origin, or `Sec-Fetch-Site: cross-site`, answers 403: no login CSRF) or `provider` (a social provider's sign-in
   * page posts its answer here, as Apple's form_post does: the site's origin or a provider's sign-in origin).
   */
  origin: AuthEndpoint["origin"];
  /**
   * A secret is tried here (a password, a texted code, a signed-in account's two-step code): whose failures count
   * toward the account lockout (RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT), keyed by this identifier; or `false`.
   */
  lockout: Identifier | false;
  /** Counted in the sign-in metrics (`site_sign_ins_total` by path and outcome): `"sign-in"`, or `false`. */
  metric: "sign-in" | false;
  /** The per-identifier limit, and which identifier it counts (the typed email, the typed number, the account). */
  perIdentifier: { limit: RateLimitName; by: Identifier } | false;
  /** A sensitive change: long after sign-in it waits for the person to confirm who they are. */
  recentSignIn: NonNullable<AuthEndpoint["recentSignIn"]> | false;
  /** The audit log's event name. */
  audit: string | false;
  /** The security notice its success sends (to every channel the account has). */
  notice: WayInNotice | false;
  /**
   * Asks a bot check first (bot-check.server.ts): a solved proof-of-work challenge, or Turnstile's or reCAPTCHA's
   * token; a form sent without JavaScript passes under RATE_LIMIT_NO_SCRIPT_PER_IP. For whatever sends a mail or a
   * text, or makes an account, to anyone who asks.
   */
  botCheck: boolean;
  /**
   * What the session it makes proves, as OpenID `amr` values kept on the session and told to the app
   * (sign-in-proof.server.ts): `["pwd"]` for a password, `["sms"]` for a texted code; `false` where it makes no
   * session or its proof has no registered value (a provider, an emailed link, a guest).
   */
  proves: NonNullable<AuthEndpoint["proves"]> | false;
}

/** A way in's row: the rules above, required, and the table's other (optional) properties. */
export type WayInRow = WayInRules &
  Omit<AuthEndpoint, keyof WayInRules | "perAccount" | "perAccountBy" | "byRequest"> & {
    /**
     * The same endpoint, used differently: a request for which `when` holds (e.g. a body that attaches a number to
     * the signed-in account rather than signing in) is held to these rules instead, each of them decided again.
     */
    byRequest?: { when: (body: Readonly<Record<string, unknown>>) => boolean; rules: WayInRules };
  };

/** How the account center shows a way in of the account. */
export interface AccountCenterEntry {
  /** Its name on the account center and in notices. */
  label: string;
  /** The account center lists it among the ways in (and the last one stays: last-way-in.server.ts). */
  listed: boolean;
  /** The rows that add and remove it from a signed-in account (each with recent sign-in and a notice). */
  adds: readonly string[];
  removes: readonly string[];
}

/** One way in. Its Better Auth plugins and its screen's action are in its server twin, `ways-in/<name>/<name>.server.ts`. */
export interface WayIn<Rows extends Record<string, WayInRow> = Record<string, WayInRow>, Id extends string = string> {
  id: Id;
  /** What identifies the person who uses it. */
  identifies: Identifier | "provider" | "device";
  rows: Rows;
  /** Its screens (paths of the site). */
  screens: readonly string[];
  accountCenter: AccountCenterEntry;
}

/** A way in, checked: every row has every rule (the literal types stay, so names and paths are kept). */
export const wayIn = <const Rows extends Record<string, WayInRow>, const Id extends string>(unit: WayIn<Rows, Id>): WayIn<Rows, Id> => unit;

/** The rules as the table's properties; a rule decided `false` is written as absent, so a variant clears it. */
function rulesToEndpoint(rules: WayInRules): Pick<AuthEndpoint, RuleProperty> {
  const by = rules.perIdentifier ? rules.perIdentifier.by : undefined;
  return {
    session: rules.session,
    needs: rules.needs,
    perIp: rules.perIp,
    origin: rules.origin,
    lockout: rules.lockout === "email" ? "typed-email" : rules.lockout === "phone" ? "phone-number" : rules.lockout === "signed-in-account" ? "signed-in-user" : undefined,
    metric: rules.metric || undefined,
    oneFactor: rules.oneFactor ? true : undefined,
    perAccount: rules.perIdentifier ? rules.perIdentifier.limit : undefined,
    perAccountBy: by === "signed-in-account" ? "signed-in-user" : by === "phone" ? "phone-number" : undefined,
    recentSignIn: rules.recentSignIn || undefined,
    audit: rules.audit || undefined,
    notice: typeof rules.notice === "string" ? rules.notice : undefined,
    botCheck: rules.botCheck ? true : undefined,
    proves: rules.proves || undefined,
  };
}
type RuleProperty = "session" | "needs" | "perIp" | "origin" | "lockout" | "metric" | "oneFactor" | "perAccount" | "perAccountBy" | "recentSignIn" | "audit" | "notice" | "botCheck" | "proves";

/** A unit's rows as rows of the endpoint table. */
export function endpointRows<Rows extends Record<string, WayInRow>>(unit: WayIn<Rows>): { [K in keyof Rows]: AuthEndpoint } {
  return Object.fromEntries(
    Object.entries(unit.rows).map(([name, row]) => {
      const { oneFactor: _o, perIdentifier: _p, recentSignIn: _r, audit: _a, notice: _n, botCheck: _b, proves: _v, lockout: _l, metric: _m, byRequest, ...rest } = row;
      const endpoint: AuthEndpoint = { ...rest, ...rulesToEndpoint(row) } as AuthEndpoint;
      if (byRequest) endpoint.byRequest = { when: byRequest.when, rules: rulesToEndpoint(byRequest.rules) };
      return [name, endpoint];
    }),
  ) as { [K in keyof Rows]: AuthEndpoint };
}
