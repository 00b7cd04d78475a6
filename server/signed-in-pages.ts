import type { MiddlewareHandler } from "hono";
import type { signedInPages } from "~/features/shell/signed-in-pages.server";
import { countSignedInPage } from "~/services/metrics.server";
import { cspNonceOf } from "./headers";
import { acceptsGzip } from "./compression";
import { carriesSessionCookie } from "./session-cookie";

/**
 * A page the same for every visitor, asked for by a signed-in parent: the page's template filled in with their user
 * area and data (app/features/shell/signed-in-pages.server.ts) instead of a whole render, with this answer's nonce,
 * private like every page that names its user, gzipped from the template's parts compressed once. Anything else,
 * and a page no template fits, goes on to React Router. Inside the security headers, which treat it as the render
 * it stands for.
 */
export function signedInPageAnswers(pages: ReturnType<typeof signedInPages>): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const nonce = cspNonceOf(c);
    if (c.req.method !== "GET" || !nonce || c.req.url.includes("?") || !pages.has(path) || !carriesSessionCookie(c.req.header("cookie"))) return next();
    const page = await pages.answer(c.req.raw, path, nonce);
    countSignedInPage(page ? "filled" : "rendered");
    if (!page) return next();
    const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" };
    // Gzipped as server/compression.ts gzips a render, from the template's parts compressed once.
    if (!acceptsGzip(c.req.header("accept-encoding"))) return new Response(page.html, { headers });
    const body = page.gzip();
    return new Response(new Uint8Array(body), { headers: { ...headers, "Content-Encoding": "gzip", "Content-Length": String(body.length), Vary: "Accept-Encoding" } });
  };
}
