/**
 * The one rule for every post-sign-in destination (`redirectTo`, Better Auth's callback URLs, the continue
 * links of verification and reset), on the server and in the browser alike: resolve the value with the WHATWG
 * URL parser against the site's origin and keep it only when the result is on that origin and its serialised
 * path cannot be read as another host (`//host`, `/\host`). Anything else becomes `fallback` ("/").
 * Resolving first matters: dot segments, percent-encoded dots, backslashes, tabs and newlines are all
 * normalised by the parser, so "/.//evil.example" is judged as the "//evil.example" a browser would follow.
 */
export function safeRedirect(target: string | null | undefined, siteUrl: string, fallback = "/"): string {
  if (!target) return fallback;
  let site: URL;
  let url: URL;
  try {
    site = new URL(siteUrl);
    url = new URL(target, site);
  } catch {
    return fallback;
  }
  if (url.origin !== site.origin || url.username || url.password) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
}
