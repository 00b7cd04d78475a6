/**
 * Canonical-URL rules (PRODUCT §2): `www.<host>` → bare host, and no trailing slash except on `/`.
 * Both answer 301 and keep the query. Returns the target URL, or null when the request is canonical.
 * The scheme alone never causes a redirect (TLS is the proxy's concern); it only shapes the target.
 */
export function canonicalRedirect(requestUrl: string, options: { https: boolean }): string | null {
  const url = new URL(requestUrl);
  let changed = false;
  // Behind a proxy that ends TLS the request arrives as http: a redirect must not drop the site to http.
  if (options.https) url.protocol = "https:";

  if (url.hostname.startsWith("www.")) {
    url.hostname = url.hostname.slice(4);
    changed = true;
  }

  // Collapse leading slashes first: "//evil.com/" must stay a path on this host, never another host.
  let pathname = url.pathname.replace(/^\/{2,}/, "/");
  if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.replace(/\/+$/, "") || "/";
  if (pathname !== url.pathname) {
    url.pathname = pathname;
    changed = true;
  }

  return changed ? url.toString() : null;
}
