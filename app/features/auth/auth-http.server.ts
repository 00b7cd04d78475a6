import { data } from "react-router";
import type { FormResult } from "~/lib/form-result";
import { clientIpHeader } from "~/services/client-ip.server";
import { getAuthService, type AuthService } from "./auth-service.server";
import { type DeviceSession, type SignInMethods } from "./auth-client";
import { messageForCode, wrongPasswordMessage } from "./auth-error-messages";
import type { IdentityRecord } from "./identity-record";
import { authBasePath, authEndpoint, type AuthPath, type BotCheckedPath } from "./auth-endpoints";
import { jsonError, toCatalogueError } from "./api-errors.server";
import { originRefusal } from "./auth-origin.server";
import { withoutSessionTokens } from "./session-token-scrub.server";
import { noteRequestError } from "~/services/request-context.server";
import { unlessDependencyFailed } from "~/services/dependency-errors.server";
import { authHandler } from "./auth-router.server";
import { noScriptBotCheck } from "./bot-check.server";
import { botCheckHeader } from "./bot-check-client";
import { sessionOf } from "./viewer.server";
import { identityRecordOf, userFieldsOf } from "./identity-endpoint.server";
import { devicesOf } from "./device-sessions.server";
import { signInMethodsOf } from "./sign-in-methods.server";

/**
 * One request to the sign-in layer's API, from the host (`/api/auth/*`) or from a sign-in form's action: only a
 * path and method the endpoint table lists, from a page its row's Origin rule allows, reaches Better Auth; its error answers become the catalogue's
 * `{ code, message }`; session tokens are taken out of the body; the pop-up's landing page gets no COOP.
 */
export async function serveAuthRequest(service: AuthService, request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(authBasePath.length);
  const row = authEndpoint(path);
  if (!row) return jsonError(404, "auth/not-found");
  if (!(row.methods as readonly string[]).includes(request.method)) {
    return jsonError(405, "auth/invalid-request", undefined, { allow: row.methods.join(", ") });
  }
  // The row's Origin rule, before any plugin runs (auth-origin.server.ts).
  const foreign = originRefusal(service.env, row, request);
  if (foreign) return foreign;
  try {
    const response = await withoutSessionTokens(await toCatalogueError(await authHandler(service.auth)(request), row, service.env.SUPPORT_EMAIL));
    if (!row.popupLanding) return response;
    // After the provider's pages the pop-up must not switch browsing-context group, or window.opener is gone.
    const headers = new Headers(response.headers);
    headers.set("Cross-Origin-Opener-Policy", "unsafe-none");
    return new Response(response.body, { status: response.status, headers });
  } catch (error) {
    // The request log writes it with its stack; an unreachable dependency turns this into 503 there.
    noteRequestError(error);
    return jsonError(500, "auth/internal-error");
  }
}

/** What an in-process call of the sign-in layer's API answered, read for a form's action. */
export interface AuthAnswer {
  ok: boolean;
  status: number;
  /** `url`: where a provider's pages begin (linking a provider, signing in through one). */
  body: { code?: string; message?: string; user?: IdentityRecord | null; devices?: DeviceSession[]; url?: string } | null;
  cookies: string[];
  /** Seconds before a refused (429) attempt may be retried, as the JSON API sends it. */
  retryAfter: string | null;
}

/**
 * Calls the sign-in layer's API in-process with the browser's own cookie, Origin and address, so every rule
 * (origin check, rate limits, the redirect rule, the endpoint table's rules) applies as for the JSON API.
 * `path` is a row of the endpoint table (`authPaths`); with a body it is a POST; `query` is a GET's search parameters;
 * `form` carries the form's bot-check field to a row that asks for one.
 */
export async function callAuthApi<Path extends AuthPath>(
  request: Request,
  path: Path,
  body?: unknown,
  query?: Record<string, string>,
  // Required for a row with the bot check, so an action cannot forget its form's answer (typecheck).
  ...[form]: Path extends BotCheckedPath ? [form: { botCheck?: string }] : [form?: { botCheck?: string }]
): Promise<AuthAnswer> {
  const service = getAuthService();
  const headers = new Headers();
  for (const name of ["cookie", "origin", "referer", "user-agent", clientIpHeader]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  // The form's solved bot check, or (sent without JavaScript) this process's pass to the stricter limit.
  if (authEndpoint(path)?.botCheck) headers.set(botCheckHeader, form?.botCheck || noScriptBotCheck());
  if (body !== undefined) headers.set("content-type", "application/json");
  const authRequest = new Request(`${service.env.SITE_URL}${authBasePath}${path}${query ? `?${new URLSearchParams(query)}` : ""}`, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // A refusal while the database or Redis was away is the outage's (503), not the visitor's: no "signed out" page.
  const answer = await unlessDependencyFailed(() => serveAuthRequest(service, authRequest), (response) => !response.ok);
  const parsed = (await answer.json().catch(() => null)) as AuthAnswer["body"];
  return { ok: answer.ok, status: answer.status, body: parsed, cookies: answer.headers.getSetCookie(), retryAfter: answer.headers.get("retry-after") };
}

/**
 * The browser's request as its next one would be after `answer`: its cookies with those the answer set (a renewed
 * session) laid over them, and those it cleared gone. For a form whose action makes two calls in a row.
 */
export function requestAfter(request: Request, answer: AuthAnswer): Request {
  const jar = new Map<string, string>();
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  for (const cookie of answer.cookies) {
    const [pair = "", ...attributes] = cookie.split(";");
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const cleared = !value || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
    if (cleared) jar.delete(name);
    else jar.set(name, value);
  }
  const headers = new Headers(request.headers);
  headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  return new Request(request.url, { method: request.method, headers });
}

/**
 * The signed-in user's identity record (what `/me` answers), or null: read in-process from the request's one session
 * lookup (viewer.server.ts), which the page's other loaders share, rather than through another call of the API.
 */
export async function currentIdentity(request: Request): Promise<IdentityRecord | null> {
  const current = await sessionOf(request);
  return current ? identityRecordOf(await internalAdapter(), current) : null;
}

/** The signed-in user's own fields, or null: the identity record without its ways in and sign-in times (two more queries). */
export async function currentUserFields(request: Request): Promise<Omit<IdentityRecord, "providerData" | "metadata"> | null> {
  const current = await sessionOf(request);
  return current ? userFieldsOf(current.user) : null;
}

/** The signed-in user's devices (what `GET /devices` answers), or null for a visitor; read as currentIdentity is. */
export async function currentDevices(request: Request): Promise<DeviceSession[] | null> {
  const current = await sessionOf(request);
  return current ? devicesOf(await internalAdapter(), current) : null;
}

/** The signed-in account's ways in (what `GET /sign-in-methods` answers), or null; read as currentIdentity is. */
export async function currentSignInMethods(request: Request): Promise<SignInMethods | null> {
  const current = await sessionOf(request);
  const { database, socialProviders } = getAuthService();
  return current ? signInMethodsOf({ db: database.db, providers: socialProviders }, current.user.id) : null;
}

const internalAdapter = async () => (await getAuthService().auth.$context).internalAdapter;

/** Whether the account has a password to give (a social or phone-only one has none). */
export const hasPasswordWayIn = (user: IdentityRecord) => user.providerData.some((provider) => provider.providerId === "password");

/** The answer's cookies as response headers (a sign-in sets one, a sign-out clears it). */
export function withCookies(cookies: string[], retryAfter?: string | null): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  if (retryAfter) headers.set("retry-after", retryAfter);
  return headers;
}

/**
 * The sign-in screens' `headers`: a refused attempt (429) tells the browser when to try again, as the JSON API
 * does. React Router passes an action's headers other than Set-Cookie on only through this export.
 */
export function actionRetryAfter({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("retry-after");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}

/**
 * A refused call as the form's result: the catalogue message, shown beside the field `fields` names for its code
 * (else above the form), with the answer's status and cookies.
 */
export function authFailure(answer: AuthAnswer, values: Record<string, string> = {}, fields: Partial<Record<string, string>> = {}, intent?: string) {
  const code = answer.body?.code ?? "auth/internal-error";
  const field = fields[code];
  // A form that asked only for a password (its field takes the error) names only the password.
  const message = code === "auth/invalid-credential" && field ? wrongPasswordMessage : (answer.body?.message ?? messageForCode(code));
  return data<FormResult>(
    { formError: message, code, values, fieldErrors: field ? { [field]: message } : undefined, intent },
    { status: answer.status, headers: withCookies(answer.cookies, answer.retryAfter) },
  );
}
