import type { Context } from "hono";
import { clientIpHeader, requestClientIp } from "~/services/client-ip.server";

/** The request as the app sees it: with the client's address in the one header the app trusts. */
export function withClientIp(c: Context, trustedProxies: readonly string[]): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(clientIpHeader, requestClientIp(c, trustedProxies));
  return new Request(c.req.raw, { headers });
}
