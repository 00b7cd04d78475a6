import type { MiddlewareHandler } from "hono";

/** A Host header as RFC 9110 allows it: a name, an IPv4 address or a bracketed IPv6 address, and a port. */
const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]{0,62})?(?:\.[a-z0-9](?:[a-z0-9-]{0,62})?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The hostname of a Host header, or null when it is malformed (including names a URL cannot hold). */
export function hostnameOf(host: string | undefined): string | null {
  if (!host || host.length > 255 || !hostPattern.test(host)) return null;
  try {
    // Also refuses what the URL parser refuses, e.g. a numeric last label ("www.127.0.0.1").
    return new URL(`http://${host}/`).hostname.replace(/\.$/, "");
  } catch {
    return null;
  }
}

export interface HostOptions {
  siteUrl: string;
  allowedHostnames: readonly string[];
  isLoopbackSite: boolean;
}

/** What a Host header is to this site: malformed, someone else's, or ours (perhaps in its www. form). */
export type HostVerdict = { kind: "malformed" } | { kind: "foreign" } | { kind: "ours"; hostname: string };

export function hostVerdict(options: HostOptions): (host: string | undefined) => HostVerdict {
  const allowed = new Set(options.allowedHostnames.flatMap((name) => [name, `www.${name}`]));
  return (host) => {
    const hostname = hostnameOf(host);
    if (!hostname) return { kind: "malformed" };
    return options.isLoopbackSite || allowed.has(hostname) ? { kind: "ours", hostname } : { kind: "foreign" };
  };
}

/**
 * Malformed Host → 400. On a public site, a host that is not ours (nor its www. form) is sent to SITE_URL
 * with the same path: the target comes from the configuration, never from the request.
 */
export function hostValidation(options: HostOptions): MiddlewareHandler {
  const verdictOf = hostVerdict(options);
  return async (c, next) => {
    const verdict = verdictOf(c.req.header("host"));
    if (verdict.kind === "malformed") return c.json({ code: "bad-host", message: "請求的主機名稱不正確。" }, 400);
    if (verdict.kind === "foreign") {
      const { pathname, search } = new URL(c.req.url);
      return c.redirect(new URL(`${pathname.replace(/^\/{2,}/, "/")}${search}`, options.siteUrl).toString(), 301);
    }
    return next();
  };
}

/**
 * The request as the browser made it: behind the TLS-terminating proxy of the deploy recipe the server hears
 * `http://`, while the browser's Origin says `https://`. React Router refuses an action whose Origin does not
 * match the request's URL (its CSRF check), so on an https site the URL React Router sees is https too.
 */
export function asSiteProtocol(request: Request, https: boolean): Request {
  if (!https || !request.url.startsWith("http:")) return request;
  const init: RequestInit & { duplex: "half" } = { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: "half" };
  return new Request(`https:${request.url.slice("http:".length)}`, init);
}
