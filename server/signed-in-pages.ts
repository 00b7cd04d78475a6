import { promisify } from "node:util";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import type { FilledPage, signedInPages } from "~/features/shell/signed-in-pages.server";
import { countSignedInPage } from "~/services/metrics.server";
import { fixedPageHeaders, freshNonce, hashedPagePolicy, type HeaderOptions } from "./headers";
import { acceptsGzip } from "./compression";
import { carriesSessionCookie } from "./session-cookie";

type SignedInPages = ReturnType<typeof signedInPages>;

/**
 * A parent's filled page as kept: the nonce its scripts carry (no policy names it), its CSP, and its gzip once
 * asked for: first from the template's parts compressed once, then, once the page is asked for again, the whole
 * page compressed off the main thread (9 % smaller).
 */
interface KeptPage {
  nonce: string;
  policy: string;
  gzip?: { body: Buffer; headers: Record<string, string>; whole: boolean };
  bytes: number;
}

const gzip = promisify(zlib.gzip);

type FilledAnswer = { headers: Record<string, string>; body: string | Buffer };

/**
 * A parent's filled pages, kept by what they hold (`FilledPage.key`: the template and the parent's values) so that
 * a page they load again is the same bytes, sent as they are: its CSP names the hashes of its own inline scripts and
 * styles, as a visitor's cached page does (decision 702), instead of a nonce per answer (decision 714). At most
 * `maxEntries` and about `maxBytes`, the one read longest ago going first; a page whose template or parent's values
 * changed has another key. Private like every page that names its user, and gzipped as server/compression.ts gzips a render,
 * but from the template's parts compressed once.
 */
export function filledPageAnswers(options: { headers: HeaderOptions; maxEntries: number; maxBytes: number }) {
  const kept = new Map<string, KeptPage>();
  let bytes = 0;
  const drop = (key: string) => {
    bytes -= kept.get(key)?.bytes ?? 0;
    kept.delete(key);
  };
  const keep = (key: string, page: KeptPage, size: number) => {
    page.bytes += size;
    bytes += size;
    while ((kept.size > options.maxEntries || bytes > options.maxBytes) && kept.size) drop(kept.keys().next().value!);
  };
  const keptPage = (page: FilledPage): KeptPage => {
    const known = kept.get(page.key);
    if (known) {
      // Last out: pages read again outlive those made once (a board's, whose template is made anew every few seconds).
      kept.delete(page.key);
      kept.set(page.key, known);
      return known;
    }
    const nonce = freshNonce();
    const made: KeptPage = { nonce, policy: hashedPagePolicy(page.hashes(nonce), options.headers), bytes: 0 };
    kept.set(page.key, made);
    keep(page.key, made, 2 * (page.key.length + made.policy.length));
    return made;
  };
  const fixed = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" };
  return (page: FilledPage, acceptEncoding: string | undefined): FilledAnswer => {
    const known = keptPage(page);
    if (!acceptsGzip(acceptEncoding)) {
      const html = page.html(known.nonce);
      return { headers: { ...fixed, "Content-Security-Policy": known.policy, "Content-Length": String(Buffer.byteLength(html)) }, body: html };
    }
    const gzipped = (body: Buffer, whole: boolean) => {
      const headers = { ...fixed, "Content-Security-Policy": known.policy, "Content-Encoding": "gzip", "Content-Length": String(body.length), Vary: "Accept-Encoding" };
      const before = known.gzip?.body.length ?? 0;
      known.gzip = { body, headers, whole };
      if (kept.get(page.key) === known) keep(page.key, known, body.length - before);
    };
    if (!known.gzip) gzipped(page.gzip(known.nonce), false);
    else if (!known.gzip.whole) {
      known.gzip.whole = true;
      gzip(page.html(known.nonce), { level: 6 }).then((body) => gzipped(body, true), () => undefined);
    }
    return known.gzip!;
  };
}

type FilledPageAnswers = ReturnType<typeof filledPageAnswers>;

/**
 * A page the same for every visitor, or one of a page's variants (the wishing well's board), asked for by a
 * signed-in parent: the page's template filled in with their user area and data
 * (app/features/shell/signed-in-pages.server.ts) instead of a whole render, kept for them (`filledPageAnswers`).
 * Anything else, and a page no template fits, goes on to React Router. Inside the security headers, which treat it
 * as the render it stands for. On SQLite most such requests are answered before the chain (`signedInPagesUpFront`).
 */
export function signedInPageAnswers(pages: SignedInPages, filledAnswer: FilledPageAnswers): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" || !carriesSessionCookie(c.req.header("cookie"))) return next();
    const url = new URL(c.req.url);
    if (!pages.takes(url)) return next();
    const page = await pages.answer(c.req.raw, url);
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
 * gives it (the security headers, the request id): the chain's layers, the web Request and
 * Response, were most of what such a page cost after decision 708 (decision 712). The answer itself where everything
 * is at hand (decision 714's addendum), else a promise of it. Null for a request it does not take or could not
 * answer at once (no session behind the cookie, a user no template fits, a failure), and a promise of null for one
 * it could not answer after reading (a session Better Auth must answer, a failed read): the chain then answers it.
 */
export function signedInPagesUpFront(pages: SignedInPages, filledAnswer: FilledPageAnswers, headerOptions: HeaderOptions) {
  const securityHeaders = fixedPageHeaders(headerOptions);
  const answerOf = (page: FilledPage, request: UpFrontRequest): UpFrontAnswer => {
    const { headers, body } = filledAnswer(page, request.acceptEncoding);
    const answer = { status: 200 as const, headers: { ...securityHeaders, ...headers, "X-Request-Id": request.requestId() }, body };
    countSignedInPage("filled", "up-front");
    return answer;
  };
  return (request: UpFrontRequest): UpFrontAnswer | Promise<UpFrontAnswer | null> | null => {
    const { pathname } = request;
    if (!pages.has(pathname)) return null;
    const cookie = request.cookie();
    if (!cookie || !carriesSessionCookie(cookie)) return null;
    // Without a promise where everything is at hand (a prerendered page's template made, the session read straight).
    try {
      const atOnce = pages.answerFromCookieAtOnce(cookie, pathname);
      if (atOnce !== undefined) return atOnce && answerOf(atOnce, request);
    } catch {
      // The chain answers, and says what failed.
      return null;
    }
    return pages
      .answerFromCookie(cookie, pathname)
      .then((page) => page && answerOf(page, request))
      // Whatever failed, the chain answers (and says what failed, as it does for every request).
      .catch(() => null);
  };
}
