/**
 * Whether a request carries the sign-in layer's session cookie (perhaps an expired one). Such a request gets its
 * pages rendered for it: never a prerendered copy or a cached answer, both made for nobody (a stale cookie just
 * renders the signed-out page). Anonymous requests keep the fast paths (static-files.ts, page-cache.ts).
 */
const sessionCookie = /(?:^|;\s*)(?:__Host-|__Secure-)?[\w-]+\.session_token=/;

export const carriesSessionCookie = (cookieHeader: string | undefined) => sessionCookie.test(cookieHeader ?? "");
