import type { IncomingMessage, ServerResponse } from "node:http";
import { isDevTool } from "./dev-tools-guard";
import { hostVerdict, type HostOptions } from "./host-header";
import { requestIdFrom, type AnswerLine } from "./request-log";
import { countAnswer } from "./request-metrics";
import type { signedInPagesUpFront } from "./signed-in-pages";
import type { StaticFiles } from "./static-files";

type SignedInPagesUpFront = ReturnType<typeof signedInPagesUpFront>;

/**
 * The files of the build and the prerendered pages, answered straight from Node's request handler, in front of
 * Hono (decision 701, 2026-11-29 addendum); on SQLite, the same pages and the wishing well's board as a signed-in
 * parent sees them (decisions 712, 713, 714: answered at once, or a promise which says whether it answered). Through the middleware chain such an answer cost five times what bare
 * `node:http` spends on the same bytes: a web Request, a context, nine async layers and the request context's
 * AsyncLocalStorage, for an answer that is a map look-up. Here it is one `writeHead` and one `end` with the same
 * header object `server/static-files.ts` makes for Hono, and what the chain does for such a request is done here
 * too: the request id, the metrics and the request log's line.
 *
 * Only a request whose answer cannot depend on a layer this path skips is taken: GET or HEAD of an address that is
 * a file's exactly (no percent-escape, no dot segment: nothing the URL parser would rewrite), one Host header that
 * is ours and not its www. form (no canonical redirect), no development tool (their guard reads the client's
 * address). Everything else returns false and goes through Hono, which answers the same file the same way
 * (`tests/faults/memory-answers.test.ts` holds the two paths to the same bytes). A signed-in parent's page is true
 * once answered at once, or a promise of the same: true once answered, false for Hono to answer (nothing written yet).
 */
export function memoryAnswers(options: { files: StaticFiles; hosts: HostOptions; logAnswer: (line: AnswerLine) => void; signedInPages?: SignedInPagesUpFront }) {
  const servedAsIs = servedHosts(options.hosts);
  const { signedInPages } = options;
  return (incoming: IncomingMessage, outgoing: ServerResponse): boolean | Promise<boolean> => {
    const started = performance.now();
    const { method = "" } = incoming;
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    if (!plainPath.test(pathname) || isDevTool(pathname) || !servedAsIs(incoming)) return false;
    let requestId = "";
    const idOfRequest = () => (requestId = requestIdFrom(givenRequestId(incoming)));
    const send = (answer: { status: number; headers: Record<string, string>; body: string | Uint8Array | null }) => {
      outgoing.writeHead(answer.status, answer.headers);
      outgoing.end(answer.body ?? undefined);
      countAnswer(pathname, method, answer.status, started);
      options.logAnswer({ requestId, method, path: pathname, status: answer.status, durationMs: Math.round(performance.now() - started) });
      return true;
    };
    const answer = options.files.answer({ method, pathname, hasQuery: queryAt !== -1, header: (name) => incoming.headers[name], requestId: idOfRequest });
    if (answer) return send(answer);
    // A signed-in parent's prerendered page or board: its template filled in (server/signed-in-pages.ts), or on to Hono. One
    // Cookie header only: Node joins several with "; ", Hono with ", ", and the two would read different sessions.
    if (!signedInPages || method !== "GET" || queryAt !== -1) return false;
    const cookie = () => (headerCount(incoming.rawHeaders, "cookie") === 1 ? incoming.headers.cookie : undefined);
    const pending = signedInPages({ pathname, cookie, acceptEncoding: incoming.headers["accept-encoding"], requestId: idOfRequest });
    if (!pending) return false;
    if (pending instanceof Promise) return pending.then((page) => (page ? send(page) : false));
    // Made at once: a write that fails is handled as the promise's would be (server.mjs: Hono, or the connection ended).
    try {
      return send(pending);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** A proxy's X-Request-Id: Node joins repeated headers it does not know into one string, as Hono reads them. */
function givenRequestId(incoming: IncomingMessage): string | undefined {
  const given = incoming.headers["x-request-id"];
  return typeof given === "string" ? given : undefined;
}

/**
 * An address the URL parser leaves as it is: slash-separated names of unreserved characters, no empty, `.` or `..`
 * segment. (A file's address never holds anything else; a request for another spelling of it goes through Hono.)
 */
const plainPath = /^(?:\/(?!\.\.?(?:\/|$))[\w.~-]+)*\/?$/;

/** How many distinct Host headers' verdicts are remembered: a site has a handful; a scan of made-up ones is not kept. */
const rememberedHosts = 32;

/** Whether a request's Host lets it be answered as it is: exactly one Host header, ours, and not the www. form. */
function servedHosts(hosts: HostOptions): (incoming: IncomingMessage) => boolean {
  const verdictOf = hostVerdict(hosts);
  const remembered = new Map<string, boolean>();
  return (incoming) => {
    const host = incoming.headers.host;
    if (host === undefined || headerCount(incoming.rawHeaders, "host") !== 1) return false;
    let served = remembered.get(host);
    if (served === undefined) {
      const verdict = verdictOf(host);
      served = verdict.kind === "ours" && !verdict.hostname.startsWith("www.");
      if (remembered.size < rememberedHosts) remembered.set(host, served);
    }
    return served;
  };
}

/**
 * How many times a request names a header (`name` in lower case). Node keeps the first of several Host headers and
 * Hono reads them joined (and refuses the result); Node and Hono join several Cookie headers differently: such a
 * request goes through Hono.
 */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const given = rawHeaders[index]!;
    if (given.length === name.length && given.toLowerCase() === name) count += 1;
  }
  return count;
}
