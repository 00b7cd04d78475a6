import { Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/features/security/csp-nonce";
import { cspNonceHeader } from "~/features/security/csp.server";
import { getLogger } from "~/services/logger.server";
import { noteRequestError } from "~/services/request-context.server";
import { deferHydration } from "./defer-hydration.server";

export const streamTimeout = 5_000;

/**
 * React Router's errors go to the request they failed, not to stderr: the request log writes the answer's line
 * with the error and its stack (and answers 503 when a dependency was away). A request the client gave up on,
 * and a client's mistake (a POST to a page without an action is a 405), are no bug: the request log's line says
 * enough.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) {
    getLogger().debug({ method: request.method, path: new URL(request.url).pathname, status: error.status }, "route error response");
    return;
  }
  noteRequestError(error);
};

/**
 * Renders the whole document before answering (the host gzips it in one piece anyway, and no route streams
 * deferred data), then lets the page's JavaScript load after the first paint (see deferHydration). The CSP nonce
 * the host chose for this answer (docs/security.md) goes on React Router's scripts and, through NonceProvider,
 * on the root's inline styles.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // A page that names its signed-in user (the bar shows them from the server's HTML) is that user's alone.
  const root = routerContext.staticHandlerContext.loaderData.root as { sessionUser?: unknown } | undefined;
  if (root?.sessionUser && !/\bprivate\b|no-store/.test(responseHeaders.get("Cache-Control") ?? "")) {
    responseHeaders.set("Cache-Control", "private, no-cache");
  }
  const nonce = request.headers.get(cspNonceHeader) ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        // A plain string nonce reaches only React's inline scripts; the <style precedence> tags React hoists into
        // <head> (the wishing well's, the dev blog's, the content screens') take theirs from `style`.
        nonce: nonce && { script: nonce, style: nonce },
        // Every <Suspense> boundary inline where it stands, however large: the whole document is rendered before it
        // is sent, and an outlined boundary would wait hidden for a script (blank without JavaScript). The layout's
        // boundaries only split hydration (decision 710).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(
            new Writable({
              write(chunk: Buffer, _encoding, callback) {
                chunks.push(chunk);
                callback();
              },
              final(callback) {
                clearTimeout(timeout);
                responseHeaders.set("Content-Type", "text/html; charset=utf-8");
                resolve(new Response(deferHydration(Buffer.concat(chunks).toString("utf8")), { status, headers: responseHeaders }));
                callback();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // Errors before the shell reject above and are logged by React Router; these come from inside it.
          if (shellRendered) getLogger().error({ path: new URL(request.url).pathname, err: error }, "render error");
        },
      },
    );
  });
}
