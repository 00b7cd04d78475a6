import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { BlockList } from "node:net";
import { clientIpHeader, resolveClientIp, trustedProxyList } from "~/services/client-ip.server";

const lists = new WeakMap<readonly string[], BlockList>();

/** The client's address: the socket peer, or X-Forwarded-For only when the peer is a trusted proxy. */
export function clientIp(c: Context, trustedProxies: readonly string[]): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // Not served by node (e.g. app.request in a test): there is no socket to read.
  }
  let list = lists.get(trustedProxies);
  if (!list) lists.set(trustedProxies, (list = trustedProxyList(trustedProxies)));
  return resolveClientIp(peer, c.req.header("x-forwarded-for"), list);
}

/** The request as the app sees it: with the client's address in the one header the app trusts. */
export function withClientIp(c: Context, trustedProxies: readonly string[]): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(clientIpHeader, clientIp(c, trustedProxies));
  return new Request(c.req.raw, { headers });
}
