import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";

export interface NodeBindings {
  incoming: IncomingMessage & { originalUrl?: string };
  outgoing: ServerResponse;
}

/**
 * The Node request and response under a Hono request (@hono/node-server hands them over as bindings), for
 * libraries that answer on Node's objects themselves (oidc-provider's Koa app). The caller then returns
 * RESPONSE_ALREADY_SENT.
 */
export function nodeBindings(c: Context): NodeBindings {
  const bindings = c.env as Partial<NodeBindings> | undefined;
  if (!bindings?.incoming || !bindings.outgoing) throw new Error("this endpoint needs the Node server");
  return bindings as NodeBindings;
}

/** Runs a Node request handler on this request and resolves once it has answered (or the client left). */
export function answerWithNode(c: Context, handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<void> {
  const { incoming, outgoing } = nodeBindings(c);
  return new Promise<void>((resolve) => {
    outgoing.once("finish", resolve);
    outgoing.once("close", resolve);
    void handler(incoming, outgoing);
  });
}

/**
 * Fetch's own Response class: @hono/node-server's marker answer is made with it at import time, before the
 * server swaps in its lighter class, which it would write out a second time whatever its headers say.
 */
const PlainResponse = RESPONSE_ALREADY_SENT.constructor as typeof Response;

/**
 * The marker answer for a request a Node handler has answered, carrying the status it wrote, so the request log
 * records the real status (not 200) while the Node server writes nothing more.
 */
export function answeredByNode(c: Context): Response {
  const { outgoing } = nodeBindings(c);
  return new PlainResponse(null, { status: outgoing.statusCode, headers: RESPONSE_ALREADY_SENT.headers });
}
