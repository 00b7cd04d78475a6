/** Every link into the sign-in screens that carries where to go afterwards, built in one place. */
export type AuthScreenPath = "/login" | "/signup" | "/email-verification" | "/forgot-password";

/** `/login?redirectTo=%2Ffaq`; no parameter when the destination is the home page. */
export function authHref(path: AuthScreenPath, redirectTo = "/"): string {
  return redirectTo === "/" ? path : `${path}?${new URLSearchParams({ redirectTo })}`;
}
