import type { ServerEnv } from "~/config/env.server";
import { trustedOrigins } from "~/services/trusted-origins.server";
import type { AuthEndpoint } from "./auth-endpoints";
import { jsonError } from "./api-errors.server";
import { socialSignInOrigins } from "./social-providers.server";

/**
 * The Origin rule of the sign-in layer (ASVS 3.5.1, login CSRF): every request that is not a GET is held to its
 * row's `origin` before Better Auth or any plugin sees it. Better Auth checks the Origin only on its core routes and
 * only when the browser sends a cookie, so a plugin's endpoint (`/phone-number/verify`, `/email-link/sign-in`,
 * `/sign-in/anonymous`, any added later) would sign a browser into someone else's account from a foreign page.
 *
 * A browser names the page a POST comes from: `Origin` (every browser on a cross-origin POST), else
 * `Sec-Fetch-Site`. A request with neither comes from no browser page (an app, a script), which no other site can
 * make a visitor's browser send; it is left to the row's other rules.
 */
const allowed = new WeakMap<ServerEnv, Record<AuthEndpoint["origin"], ReadonlySet<string>>>();

function originsOf(env: ServerEnv): Record<AuthEndpoint["origin"], ReadonlySet<string>> {
  let origins = allowed.get(env);
  if (!origins) {
    const site = trustedOrigins(env).map((url) => new URL(url).origin);
    origins = { site: new Set(site), provider: new Set([...site, ...socialSignInOrigins(env)]) };
    allowed.set(env, origins);
  }
  return origins;
}

/** Whether a request may reach its row: undefined when it may, else the 403 to answer. */
export function originRefusal(env: ServerEnv, row: AuthEndpoint, request: Request): Response | undefined {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const origin = request.headers.get("origin");
  if (origin !== null) return originsOf(env)[row.origin].has(origin) ? undefined : refused();
  const fetchSite = request.headers.get("sec-fetch-site");
  return fetchSite === null || fetchSite === "same-origin" || fetchSite === "none" ? undefined : refused();
}

const refused = () => jsonError(403, "auth/unauthorized-domain", "只接受本網站頁面送出的請求，請回到網站重新操作。");
