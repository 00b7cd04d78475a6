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
  return readsAsAnotherHost(path) ? fallback : path;
}

/**
 * True when the path, as served or once more percent-decoded by whoever reads it next (a framework, a proxy, a
 * client that decodes a query parameter), starts like another host (`//`, `/\`) or holds a control character:
 * "/%09/evil.example" decodes to "/<TAB>/evil.example", which the parser reads as "//evil.example".
 */
function readsAsAnotherHost(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathOnly(path));
  } catch {
    return true;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return true;
  return /^[/\\]{2}/.test(path) || /^[/\\]{2}/.test(decoded);
}

/** The path without its query and fragment (those may decode to anything without moving the browser). */
const pathOnly = (path: string) => path.replace(/[?#].*$/s, "");

/**
 * A same-site path for something the site stores and later serves or links (a cover image, a return address):
 * the redirect rule's result, or null when the rule refuses it or it is not a plain path.
 */
export function sameSitePath(target: string): string | null {
  const trimmed = target.trim();
  if (!trimmed.startsWith("/")) return null;
  return safeRedirect(trimmed, "http://site.invalid", "") || null;
}
