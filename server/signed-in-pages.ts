import type { MiddlewareHandler } from "hono";
import type { FilledPage, signedInPages } from "~/features/shell/signed-in-pages.server";
import { countSignedInPage } from "~/services/metrics.server";
import { cspNonceOf, freshNonce, pageHeaders, type HeaderOptions } from "./headers";
import { acceptsGzip } from "./compression";
import { carriesSessionCookie } from "./session-cookie";

type SignedInPages = ReturnType<typeof signedInPages>;

/**
 * A filled page's own headers and body: private like every page that names its user, and gzipped as
 * server/compression.ts gzips a render, but from the template's parts compressed once.
 */
function filledAnswer(page: FilledPage, acceptEncoding: string | undefined): { headers: Record<string, string>; body: string | Buffer } {
  const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" };
  if (!acceptsGzip(acceptEncoding)) {
    const html = page.html();
    return { headers: { ...headers, "Content-Length": String(Buffer.byteLength(html)) }, body: html };
  }
  const body = page.gzip();
  return { headers: { ...headers, "Content-Encoding": "gzip", "Content-Length": String(body.length), Vary: "Accept-Encoding" }, body };
}

/**
 * A page the same for every visitor, or one of a page's variants (the wishing well's board), asked for by a
 * signed-in parent: the page's template filled in with their user area and data
 * (app/features/shell/signed-in-pages.server.ts) instead of a whole render, with this answer's nonce.
 * Anything else, and a page no template fits, goes on to React Router. Inside the security headers, which treat it
 * as the render it stands for. On SQLite most such requests are answered before the chain (`signedInPagesUpFront`).
 */
export function signedInPageAnswers(pages: SignedInPages): MiddlewareHandler {
  return async (c, next) => {
    const nonce = cspNonceOf(c);
    if (c.req.method !== "GET" || !nonce || !carriesSessionCookie(c.req.header("cookie"))) return next();
    const url = new URL(c.req.url);
    if (!pages.takes(url)) return next();
    const page = await pages.answer(c.req.raw, url, nonce);
    countSignedInPage(page ? "filled" : "rendered", "chain");
    if (!page) return next();
    const { headers, body } = filledAnswer(page, c.req.header("accept-encoding"));
    return new Response(typeof body === "string" ? body : new Uint8Array(body), { headers });
  };
}

/** What the answer in front of the chain reads of a GET without a query string. */
export interface UpFrontRequest {
  pathname: string;
  /** The Cookie header, asked only for a prerendered page; undefined without one, or with several. */
  cookie: () => string | undefined;
  acceptEncoding: string | undefined;
  /** Asked only when the page is answered. */
  requestId: () => string;
}

export interface UpFrontAnswer {
  status: 200;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * The same answer in front of the middleware chain (server/memory-answers.ts) for an address without a query (a
 * prerendered page, the wishing well's board when its template is made, decision 713), with the whole header set the chain
 * gives it (security headers with this answer's nonce, the request id): the chain's layers, the web Request and
 * Response, were most of what such a page cost after decision 708 (decision 712). Null at once for a request it
 * does not take; a promise of null for one it could not answer (no session behind the cookie, a session Better Auth
 * must answer, a user no template fits, a failed read): the chain then answers it, as above.
 */
export function signedInPagesUpFront(pages: SignedInPages, headerOptions: HeaderOptions) {
  const securityHeadersFor = pageHeaders(headerOptions);
  return (request: UpFrontRequest): Promise<UpFrontAnswer | null> | null => {
    const { pathname } = request;
    if (!pages.has(pathname)) return null;
    const cookie = request.cookie();
    if (!cookie || !carriesSessionCookie(cookie)) return null;
    const nonce = freshNonce();
    return pages
      .answerFromCookie(cookie, pathname, nonce)
      .then((page): UpFrontAnswer | null => {
        if (!page) return null;
        const { headers, body } = filledAnswer(page, request.acceptEncoding);
        const answer = { status: 200 as const, headers: { ...securityHeadersFor(nonce), ...headers, "X-Request-Id": request.requestId() }, body };
        countSignedInPage("filled", "up-front");
        return answer;
      })
      // Whatever failed, the chain answers (and says what failed, as it does for every request).
      .catch(() => null);
  };
}
