import type { MiddlewareHandler } from "hono";

/** The methods the site serves somewhere; anything else is a method this server does not implement. */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Methods that are never allowed: TRACE/TRACK echo requests back (cross-site tracing), CONNECT tunnels. */
const refusedMethods = new Set(["TRACE", "TRACK", "CONNECT"]);

const plain = (status: 405 | 501, text: string, allow: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", allow } });

/**
 * A 405 of the site's own APIs: JSON with a stable `code`. React Router's (a page's or a resource route's without an
 * action) names none: its page, or `{"message":"Unexpected Server Error"}`.
 */
async function namesItsCode(answer: Response): Promise<boolean> {
  if (!(answer.headers.get("content-type") ?? "").includes("json")) return false;
  const body = (await answer.clone().json().catch(() => null)) as { code?: unknown } | null;
  return typeof body?.code === "string";
}

/**
 * HTTP methods (ASVS 4.1.4 / 13.4): TRACE, TRACK and CONNECT answer 405, unknown methods 501, and a write to a page
 * that has no route action (React Router's 405, whose page names the framework) a plain 405 with `Allow`, for a
 * page and a resource route alike.
 */
export function methodPolicy(): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    if (refusedMethods.has(method)) return plain(405, "不支援這個請求方法。", "GET, HEAD, POST");
    if (!knownMethods.has(method)) return plain(501, "不支援這個請求方法。", "GET, HEAD, POST");
    await next();
    if (method !== "GET" && method !== "HEAD" && c.res.status === 405 && !(await namesItsCode(c.res))) {
      // Cleared first: Hono would otherwise carry the old answer's headers (Content-Encoding) over.
      c.res = undefined;
      c.res = plain(405, "這個頁面不接受這個請求方法。", "GET, HEAD");
    }
  };
}
