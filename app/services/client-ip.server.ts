import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's address, in one place. The host works it out once per request (from the socket and, behind a
 * trusted proxy, X-Forwarded-For) and hands it on in `clientIpHeader`, which it always overwrites, so a client
 * can never choose its own. The sign-in layer and the analytics endpoint read only that header.
 */
export const clientIpHeader = "x-client-ip";

const normalize = (address: string) => address.trim().replace(/^::ffff:/, "").toLowerCase();

/** The configured proxies (addresses and CIDR ranges, validated by the configuration) as one lookup. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The socket's peer, or — only when that peer is a trusted proxy — the right-most address in X-Forwarded-For
 * that is not itself a trusted proxy.
 */
export function resolveClientIp(peer: string | undefined, forwardedFor: string | undefined, trusted: BlockList): string {
  const socket = normalize(peer ?? "unknown");
  if (!isTrusted(trusted, socket)) return socket;
  const forwarded = (forwardedFor ?? "").split(",").map(normalize).filter(Boolean);
  for (let index = forwarded.length - 1; index >= 0; index -= 1) {
    const address = forwarded[index];
    if (address && !isTrusted(trusted, address)) return isIP(address) ? address : socket;
  }
  return socket;
}

const lists = new WeakMap<readonly string[], BlockList>();

/** The client's address of a request the host serves: the socket peer, or X-Forwarded-For only behind a trusted proxy. */
export function requestClientIp(c: Context, trustedProxies: readonly string[]): string {
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
