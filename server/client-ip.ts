import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { clientIpHeader } from "~/services/client-ip";

const normalize = (address: string) => address.trim().replace(/^::ffff:/, "").toLowerCase();

/**
 * The address a request came from: the socket's peer, or — only when that peer is a configured trusted
 * proxy — the right-most address in X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientIp(c: Context, trustedProxies: readonly string[]): string {
  let peer = "unknown";
  try {
    peer = normalize(getConnInfo(c).remote.address ?? "unknown");
  } catch {
    // Not served by node (e.g. app.request in a test): there is no socket to read.
  }
  if (!trustedProxies.includes(peer)) return peer;
  const forwarded = (c.req.header("x-forwarded-for") ?? "").split(",").map(normalize).filter(Boolean);
  for (let index = forwarded.length - 1; index >= 0; index -= 1) {
    const address = forwarded[index];
    if (address && !trustedProxies.includes(address)) return address;
  }
  return peer;
}

/** The request as the app sees it: with the client's address in the one header the app trusts. */
export function withClientIp(c: Context, trustedProxies: readonly string[]): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(clientIpHeader, clientIp(c, trustedProxies));
  return new Request(c.req.raw, { headers });
}
