import type { MiddlewareHandler } from "hono";

/**
 * What the app's origin (APP_URL) may read from the site besides the provider's token and userinfo endpoints
 * (whose CORS oidc-provider answers per registered app): file downloads (`/v0/b/<bucket>/o/<path>?alt=media`),
 * so the app can show a parent's profile photo. Downloads get a resource policy that lets the app's pages embed
 * them (`same-site` when the app is a subdomain of the site's domain, else `cross-origin`), and CORS for the app's
 * origin alone, with a bearer token. Every other answer keeps `same-origin` and no CORS.
 */
export function appOriginAccess({ siteUrl, appUrl }: { siteUrl: string; appUrl: string | undefined }): MiddlewareHandler {
  const isDownload = (path: string, alt: string | undefined) => /^\/v0\/b\/[^/]+\/o\/[^/]+$/.test(path) && alt === "media";
  const siteHost = new URL(siteUrl).hostname;
  const appHost = appUrl ? new URL(appUrl).hostname : undefined;
  const sameSite = Boolean(appHost && (appHost.endsWith(`.${siteHost}`) || siteHost.endsWith(`.${appHost}`)));
  const resourcePolicy = sameSite ? "same-site" : "cross-origin";

  return async (c, next) => {
    if (!appUrl || !isDownload(c.req.path, c.req.query("alt"))) return next();
    const fromApp = c.req.header("origin") === appUrl;
    if (c.req.method === "OPTIONS") {
      if (!fromApp) return c.body(null, 403);
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": appUrl,
        "Access-Control-Allow-Methods": "GET, HEAD",
        "Access-Control-Allow-Headers": "authorization, range",
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      });
    }
    await next();
    c.header("Cross-Origin-Resource-Policy", resourcePolicy);
    c.header("Vary", "Origin", { append: true });
    if (fromApp) c.header("Access-Control-Allow-Origin", appUrl);
  };
}
