/**
 * The client's address, used only as a rate-limit key and never stored. Behind configured proxies it is the
 * right-most X-Forwarded-For entry that is not one of them. Otherwise it is the socket's peer: the Node adapter
 * keeps the incoming message on the request it hands over (the host passes that request through unchanged).
 */
export function clientAddress(request: Request, trustedProxies: readonly string[]): string {
  if (trustedProxies.length > 0) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
    const client = hops.reverse().find((hop) => !trustedProxies.includes(hop.toLowerCase()));
    if (client) return client;
  }
  return socketAddress(request) ?? "unknown";
}

function socketAddress(request: Request): string | undefined {
  const key = Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === "incomingKey");
  const incoming = key ? (request as unknown as Record<symbol, { socket?: { remoteAddress?: string } }>)[key] : undefined;
  return incoming?.socket?.remoteAddress;
}
