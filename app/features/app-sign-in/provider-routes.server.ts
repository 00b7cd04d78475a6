import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import type { ServerEnv } from "~/config/env.server";
import type { InteractionDetails } from "oidc-provider";
import { answeredByNode, answerWithNode, nodeBindings } from "~/services/node-bindings.server";
import type { RateLimiter } from "~/services/rate-limiter.server";
import { resolveClientIp, trustedProxyList } from "~/services/client-ip.server";
import { grantFor, providerCookies, providerPaths, type AppProvider } from "./provider.server";
import { consentPage, errorPage, pagePolicy } from "./provider-pages.server";
import { registeredClients } from "./registered-clients.server";
import { grantResourceScopes } from "./access-tokens.server";
import { classesMet, loginProof, requiredAcr } from "./sign-in-strength.server";
import { acrValues } from "~/features/auth/index.server";
import { DependencyUnavailableError } from "~/lib/dependency-unavailable";
import { noteRequestError, setRequestDeadline } from "~/services/request-context.server";
import { serviceUnavailableMessage } from "~/services/dependency-errors.server";

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  isAnonymous: boolean;
  /** When the parent last proved who they are (ms): the ID token's `auth_time`. */
  signedInAt: number;
  /** How: the session's `amr` values, space-separated (sign-in-proof.server.ts); null when none is registered. */
  amr: string | null;
  /** Whether the account can prove a second factor now (two-step sign-in on, or a passkey). */
  hasSecondFactor: boolean;
}

/** The site's step that asks a signed-in parent to prove who they are again (and renews the session). */
const confirmIdentityPath = "/account/confirm-identity";

/**
 * Whether the app asked for a sign-in newer than the parent's: `prompt=login` (a proof made after the request
 * began) or `max_age` (a proof at most that many seconds old).
 */
function mustSignInAgain(details: InteractionDetails, user: SignedInUser): boolean {
  const askedAt = Number(details.iat ?? 0) * 1000;
  if (details.prompt.reasons.includes("login_prompt") && user.signedInAt < askedAt) return true;
  const maxAge = details.params.max_age === undefined ? undefined : Number(details.params.max_age);
  return maxAge !== undefined && Number.isFinite(maxAge) && Date.now() - user.signedInAt > maxAge * 1000;
}

export interface AppSignInRoutesDependencies {
  env: ServerEnv;
  /** The provider, made on first use (it reads its signing keys from the database). */
  appProvider(): Promise<AppProvider>;
  /** Wrong client secrets per address (RATE_LIMIT_SIGN_IN_PER_IP): a secret is a password. */
  clientAuthFailures: RateLimiter;
  /** The site's signed-in user of a request's cookie (the sign-in layer's session), or null. */
  sessionUser(headers: Headers): Promise<SignedInUser | null>;
}

/**
 * The provider's HTTP surface: discovery at /.well-known/openid-configuration and its endpoints under /oidc/ are
 * oidc-provider's own; its interaction is ours. An interaction signs the app in as the site's signed-in user (a
 * parent, or a guest, who keeps the same `sub` through the upgrade); without one it sends the browser to the
 * site's own sign-in screens (/login, every method) and comes back. A first-party app gets no consent screen.
 */
export function appSignInRoutes(deps: AppSignInRoutesDependencies) {
  const { env } = deps;
  const routes = new Hono();
  const policy = pagePolicy(registeredClients(env).redirectSources());
  const answerHeaders: [string, string][] = [
    ["Content-Security-Policy", policy],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    // Authorization codes travel in addresses: never in a Referer.
    ["Referrer-Policy", "no-referrer"],
    ...(env.SITE_URL.startsWith("https:") ? ([["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]] as [string, string][]) : []),
  ];
  const ownPage = (c: Context, html: string, status: 200 | 400 | 403 = 200) => {
    for (const [name, value] of answerHeaders) c.header(name, value);
    return c.html(html, status);
  };

  const interactionPath = `${providerPaths.interaction}/:uid`;
  const site = new URL(env.SITE_URL);
  const proxies = trustedProxyList(env.TRUSTED_PROXIES);
  /**
   * The provider builds its addresses (discovery, redirects) from the request: it is told the site's own origin
   * whatever Host reached this instance (an allowed alias, an instance's own address behind the proxy), and the
   * client's address as the host works it out (the provider trusts these headers: provider.proxy).
   */
  const asIssuerRequest = (c: Context) => {
    const { incoming } = nodeBindings(c);
    const clientIp = resolveClientIp(incoming.socket.remoteAddress, c.req.header("x-forwarded-for"), proxies);
    incoming.headers.host = site.host;
    incoming.headers["x-forwarded-proto"] = site.protocol.slice(0, -1);
    incoming.headers["x-forwarded-for"] = clientIp;
    delete incoming.headers["x-forwarded-host"];
    return { ...nodeBindings(c), clientIp };
  };

  routes.on(["GET", "POST"], interactionPath, (c) => heldToDeadline(c, env.REQUEST_DEADLINE_MS, () => errorPage(env.PRODUCT_NAME, "temporarily_unavailable"), () => interaction(c)));
  const interaction = async (c: Context): Promise<Response> => {
    const { provider, clients, sessions, lifetimes } = await deps.appProvider();
    const { incoming, outgoing, clientIp } = asIssuerRequest(c);
    if (c.req.method === "POST" && c.req.header("origin") !== env.SITE_URL) {
      return ownPage(c, errorPage(env.PRODUCT_NAME, "invalid_request"), 403);
    }
    let details;
    try {
      details = await provider.interactionDetails(incoming, outgoing);
    } catch {
      return ownPage(c, errorPage(env.PRODUCT_NAME, "session_not_found"), 400);
    }
    const finish = async (result: Record<string, unknown>) => {
      await provider.interactionFinished(incoming, outgoing, result, { mergeWithLastSubmission: false });
      return answeredByNode(c);
    };
    const silent = details.params.silent === "1";
    const user = await deps.sessionUser(c.req.raw.headers);
    if (!user) {
      if (silent) return finish({ error: "login_required", error_description: "尚未登入" });
      // A full page load back here once signed in (auth-paths.ts: documentPaths).
      return c.redirect(`/login?redirectTo=${encodeURIComponent(`${providerPaths.interaction}/${details.uid}`)}`, 303);
    }

    if (mustSignInAgain(details, user)) {
      if (silent) return finish({ error: "login_required", error_description: "需要重新登入" });
      // The page names the app that asks (its registered name, looked up from the id: `app` is never shown as given).
      const again = new URLSearchParams({ redirectTo: `${providerPaths.interaction}/${details.uid}`, app: String(details.params.client_id) });
      return c.redirect(`${confirmIdentityPath}?${again}`, 303);
    }
    const proof = loginProof(user.amr);
    // The app asked for two steps (acr_values) or insists on a class (an essential acr in `claims`): the session
    // meets it, a one-step session proves a second factor now, or the app hears why not.
    const required = requiredAcr(details.params);
    const met = required?.find((wanted) => classesMet(proof.acr).includes(wanted));
    if (required && !met) {
      if (!required.includes(acrValues.twoStep)) {
        return finish({ error: "unmet_authentication_requirements", error_description: "不支援應用程式要求的登入方式" });
      }
      if (silent) return finish({ error: "login_required", error_description: "需要兩步驟驗證" });
      if (!user.hasSecondFactor) {
        return finish({ error: "unmet_authentication_requirements", error_description: "此帳號尚未開啟兩步驟驗證或設定密碼金鑰" });
      }
      const confirm = new URLSearchParams({ redirectTo: `${providerPaths.interaction}/${details.uid}`, proof: "two-step" });
      return c.redirect(`${confirmIdentityPath}?${confirm}`, 303);
    }
    // The class the app insisted on, when the session meets more (a two-step session asked for the basic class).
    if (met) proof.acr = met;

    const clientId = details.params.client_id;
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing?.accountId === user.id ? existing : undefined;
    const missingScopes = (details.prompt.details.missingOIDCScope as string[] | undefined) ?? [];
    const needsConsent = !clients.isFirstParty(clientId) && (!grant || missingScopes.length > 0);

    if (c.req.method === "POST") {
      const form = await c.req.parseBody();
      if (form.decision !== "allow") return finish({ error: "access_denied", error_description: "使用者拒絕授權" });
    } else if (needsConsent) {
      if (silent) return finish({ error: "consent_required", error_description: "需要使用者同意" });
      const scopes = ["openid", ...(details.params.scope ?? "").split(" ").filter((scope) => scope && scope !== "openid")];
      const userName = user.isAnonymous ? "訪客" : user.email;
      return ownPage(c, consentPage(env.PRODUCT_NAME, { appName: clients.displayName(clientId), userName, scopes, action: c.req.path }));
    }

    const scope = details.params.scope ?? "openid";
    let grantId: string;
    const missingResourceScopes = details.prompt.details.missingResourceScopes as Record<string, string[]> | undefined;
    if (grant) {
      if (missingScopes.length) grant.addOIDCScope(missingScopes.join(" "));
      grantResourceScopes(grant, missingResourceScopes);
      grantId = await grant.save();
    } else {
      const created = await grantFor(provider, sessions, lifetimes.Grant, {
        accountId: user.id,
        clientId,
        appName: clients.displayName(clientId),
        scope,
        resourceScopes: missingResourceScopes,
        ipAddress: clientIp,
      });
      grantId = created.jti;
    }
    return finish({ login: { accountId: user.id, ts: Math.floor(user.signedInAt / 1000), ...proof }, consent: { grantId } });
  };

  /**
   * A CORS preflight names no app, so oidc-provider answers it for any Origin (the app is checked on the request
   * itself, clientBasedCORS): here a preflight of the endpoints a browser app calls is answered only for a
   * registered app's origin or APP_URL, and refused (403, no CORS headers) for any other.
   */
  const corsOrigins = new Set([...registeredClients(env).allCorsOrigins(), ...(env.APP_URL ? [new URL(env.APP_URL).origin] : [])]);
  const refusePreflight = (c: Context) => {
    if (c.req.method !== "OPTIONS" || !corsPaths.has(c.req.path)) return undefined;
    const origin = c.req.header("origin");
    return origin && corsOrigins.has(origin) ? undefined : c.body(null, 403, { "Cache-Control": "no-store", Vary: "Origin" });
  };

  const unavailablePage = () => errorPage(env.PRODUCT_NAME, "temporarily_unavailable");
  const forward = async (c: Context) => {
    const refused = refusePreflight(c);
    if (refused) return refused;
    return heldToDeadline(c, env.REQUEST_DEADLINE_MS, unavailablePage, () => answerProvider(c));
  };
  const answerProvider = async (c: Context) => {
    const { provider, records } = await deps.appProvider();
    if (c.req.path === providerPaths.authorization) {
      askConsentForOfflineAccess(c);
      await followSiteSession(c, deps, records);
    }
    const { outgoing, clientIp } = asIssuerRequest(c);
    const authenticates = c.req.method === "POST" && clientAuthPaths.has(c.req.path);
    if (authenticates) {
      const decision = await deps.clientAuthFailures.check(clientIp);
      if (!decision.allowed) {
        c.header("Retry-After", String(decision.retryAfterSeconds));
        c.header("Cache-Control", "no-store");
        return c.json({ error: "too_many_requests", error_description: "嘗試次數過多，請稍後再試。" }, 429);
      }
    }
    for (const [name, value] of answerHeaders) outgoing.setHeader(name, value);
    const signingOut = c.req.method === "POST" && c.req.path === `${providerPaths.end_session}/confirm` ? await appSignInSigningOut(c, records) : undefined;
    await answerWithNode(c, provider.callback());
    // Confirmed (the provider redirects): the app's sign-in ends, refresh token and all, and its backend hears it.
    if (signingOut && outgoing.statusCode >= 300 && outgoing.statusCode < 400) await records.endFamily(signingOut);
    if (authenticates && outgoing.statusCode === 401) await deps.clientAuthFailures.hit(clientIp);
    return answeredByNode(c);
  };
  const clientAuthPaths = new Set([providerPaths.token, providerPaths.revocation, providerPaths.introspection]);
  const corsPaths = new Set([...clientAuthPaths, providerPaths.userinfo, providerPaths.device_authorization]);
  routes.all("/.well-known/openid-configuration", forward);
  routes.all("/oidc/*", forward);
  return routes;
}

/**
 * The request deadline (REQUEST_DEADLINE_MS, server/request-deadline.ts) for the provider's endpoints, which answer
 * on Node's response themselves (the host's deadline cannot answer for them): past it, a request that has not begun
 * its answer gets 503 with Retry-After — JSON `temporarily_unavailable` from an endpoint an app calls, the error
 * page from one a browser opens — and its deadline signal stops its database work at the next query. What the
 * abandoned work still does is never sent. A rotation whose writes did not all land leaves the presented refresh
 * token usable, and one that did is answered again within the grace (refresh-rotation.server.ts): the app retries.
 */
async function heldToDeadline(c: Context, ms: number, page: () => string, answer: () => Promise<Response>): Promise<Response> {
  const controller = new AbortController();
  setRequestDeadline(controller.signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  const work = answer();
  const outcome = await Promise.race([work, late]);
  clearTimeout(timer);
  if (outcome !== "late") return outcome;
  const reason = new DependencyUnavailableError("deadline", `no answer within ${ms} ms`);
  controller.abort(reason);
  noteRequestError(reason);
  work.catch(() => {});
  const { outgoing } = nodeBindings(c);
  if (!outgoing.headersSent) {
    const json = !c.req.header("accept")?.includes("text/html");
    outgoing.statusCode = 503;
    outgoing.setHeader("Retry-After", "5");
    outgoing.setHeader("Cache-Control", "no-store");
    outgoing.setHeader("Content-Type", json ? "application/json; charset=utf-8" : "text/html; charset=utf-8");
    outgoing.end(json ? JSON.stringify({ error: "temporarily_unavailable", error_description: serviceUnavailableMessage }) : page());
  }
  return answeredByNode(c);
}

/**
 * The provider's own session follows the site's: a provider session of another account than the site's
 * signed-in user (signed out, or someone else signed in since) is ended before the request is answered; and a
 * silent request (prompt=none) of a signed-in user whom the provider does not know yet goes on as an interaction
 * marked `silent`, which signs the app in without showing anything or answers login_required/consent_required.
 */
async function followSiteSession(c: Context, deps: AppSignInRoutesDependencies, records: AppProvider["records"]) {
  const user = await deps.sessionUser(c.req.raw.headers);
  const sessionId = getCookie(c, providerCookies.session);
  const providerSessions = records("Session");
  const known = sessionId ? await providerSessions.find(sessionId) : undefined;
  const accountId = known?.accountId;
  if (sessionId && accountId && accountId !== user?.id) await providerSessions.destroy(sessionId);
  if (c.req.method !== "GET" || !user || accountId === user.id) return;
  const url = new URL(c.req.url);
  const prompts = (url.searchParams.get("prompt") ?? "").split(" ");
  if (!prompts.includes("none")) return;
  url.searchParams.delete("prompt");
  url.searchParams.set("silent", "1");
  nodeBindings(c).incoming.url = `${url.pathname}${url.search}`;
}

/**
 * `offline_access` survives only with `prompt=consent` (OpenID Connect Core 11; the provider drops it otherwise),
 * and only with it does an app get a refresh token. A request that names no prompt is given that one: a
 * third-party app's consent screen then says the app stays signed in (and is not shown again for a grant that
 * holds it), a first-party app sees no screen. `prompt=none` stays silent, without a refresh token.
 */
function askConsentForOfflineAccess(c: Context) {
  const url = new URL(c.req.url);
  const scopes = (url.searchParams.get("scope") ?? "").split(" ");
  if (c.req.method !== "GET" || !scopes.includes("offline_access") || url.searchParams.has("prompt")) return;
  url.searchParams.set("prompt", "consent");
  nodeBindings(c).incoming.url = `${url.pathname}${url.search}`;
}

/**
 * The grant of the app whose sign-out (RP-initiated logout, 登出應用程式) is being confirmed: named in the provider
 * session's logout state. The provider itself keeps a grant that holds a refresh token (offline_access) through
 * end-session; here the app's sign-out ends it like revoking the refresh token does.
 */
async function appSignInSigningOut(c: Context, records: AppProvider["records"]): Promise<string | undefined> {
  const sessionId = getCookie(c, providerCookies.session);
  const session = sessionId ? await records("Session").find(sessionId) : undefined;
  const { state, authorizations } = (session ?? {}) as { state?: { clientId?: string }; authorizations?: Record<string, { grantId?: string }> };
  return state?.clientId ? authorizations?.[state.clientId]?.grantId : undefined;
}
