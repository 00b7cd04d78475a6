/**
 * Where to go after signing in: only a same-origin path ("/faq?x=1"), never "//host", "/\\host" or a URL,
 * so a crafted ?redirectTo= cannot send the user to another site.
 */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  try {
    const url = new URL(target, "http://same.invalid");
    return url.origin === "http://same.invalid" ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}
