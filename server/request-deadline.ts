import type { MiddlewareHandler } from "hono";
import { DependencyUnavailableError } from "~/lib/dependency-unavailable";
import { noteRequestError, setRequestDeadline } from "~/services/request-context.server";

/**
 * Each request's deadline (REQUEST_DEADLINE_MS, 5 s): a dependency that answers slowly must not turn into slow
 * successes that hold connections and memory. Past the deadline the request is answered 503 with Retry-After (the
 * request log turns the noted DependencyUnavailableError into it) and its signal is aborted: the database opens no
 * more connections for it, so its work stops at its next query instead of running on.
 * Exempt: uploads (`/v0/`: a phone's slow upload is the client's time, with its own limits) and the identity
 * providers' endpoints, which oidc-provider answers straight on Node's response (a second answer would clash with
 * it): the app's provider holds itself to the same deadline there (provider-routes.server.ts: `heldToDeadline`).
 * The build's files answer from memory before it (server/app.ts).
 */
const exempt = /^\/(?:(?:v0|oidc|dev-oidc)\/|\.well-known\/openid-configuration$)/;

export function requestDeadline(ms: number): MiddlewareHandler {
  return async (c, next) => {
    if (exempt.test(c.req.path)) return next();
    const controller = new AbortController();
    setRequestDeadline(controller.signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), ms);
    });
    const work = next().then(() => "done" as const);
    const outcome = await Promise.race([work, late]);
    clearTimeout(timer);
    if (outcome === "done") return;
    const reason = new DependencyUnavailableError("deadline", `no answer within ${ms} ms`);
    controller.abort(reason);
    noteRequestError(reason);
    // What the abandoned work still throws is the abort's doing; its answer is never sent.
    work.catch(() => {});
    c.res = new Response(null, { status: 503 });
  };
}
