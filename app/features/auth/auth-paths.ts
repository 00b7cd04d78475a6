/** Every link into the sign-in screens that carries where to go afterwards, built in one place. */
export type AuthScreenPath = "/login" | "/signup" | "/email-verification" | "/forgot-password" | typeof twoStepPath | typeof emailLinkPath;

/** The code page of a pending two-step sign-in (password, email link or social). */
export const twoStepPath = "/login/two-step";
/** Ask for a sign-in link by email; the mailed link opens the same page with its token. */
export const emailLinkPath = "/login/email-link";

/** `/login?redirectTo=%2Ffaq`; no parameter when the destination is the home page. */
export function authHref(path: AuthScreenPath, redirectTo = "/"): string {
  return redirectTo === "/" ? path : `${path}?${new URLSearchParams({ redirectTo })}`;
}
