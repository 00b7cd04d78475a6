import type { MiddlewareHandler } from "hono";
import { isLoopbackHost } from "~/config/origin";
import { isDevToolAddress } from "~/lib/route-map";
import { requestClientIp } from "~/services/client-ip.server";

/**
 * The development tools: the route map's (the mailbox, with every verification link and code) and the host's own
 * identity provider (signs in as any address), which has its own router and so no place in the route map.
 */
const hostDevTools = /^\/dev-oidc(?:\/|$)/i;
export const isDevTool = (path: string) => isDevToolAddress(path) || hostDevTools.test(path);

/** Every address a proxy says the request passed through (X-Forwarded-For, Forwarded, X-Real-IP). */
function forwardedAddresses(header: (name: string) => string | undefined): string[] {
  const forwarded = [...(header("forwarded") ?? "").matchAll(/for="?\[?([^\]";,]+)/gi)].map((match) => match[1] ?? "");
  return [...(header("x-forwarded-for") ?? "").split(","), header("x-real-ip") ?? "", ...forwarded].map((entry) => entry.trim()).filter(Boolean);
}

/**
 * The development tools answer only a client on this machine: the client address after the trusted-proxy rule
 * must be loopback, and so must every address a proxy forwarded (a proxy on the same machine that is not listed
 * in TRUSTED_PROXIES makes every peer loopback, but still names the real client). Anyone else gets the 404 of a
 * site without them. The configuration also refuses a non-loopback HOST while they are on.
 */
export function devToolsOnlyForThisMachine(trustedProxies: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (!isDevTool(c.req.path)) return next();
    const local = isLoopbackHost(requestClientIp(c, trustedProxies)) && forwardedAddresses((name) => c.req.header(name)).every(isLoopbackHost);
    if (local) return next();
    return c.json({ code: "not-found", message: "找不到這個頁面。" }, 404);
  };
}
