import { emailLinkPath, twoStepPath } from "~/features/auth";
import type { ScreenOfTheMap } from "~/lib/route-map";

/**
 * Every link into the sign-in screens that carries where to go afterwards, built in one place. The screens are
 * the route map's modules under routes/auth/ (a new way in's screen is one by its route-map line); the sign-in layer
 * names two of them itself: the code page of a pending two-step sign-in (password, email link or social) and the
 * emailed link's page (asking for a link, and the mailed link with its token).
 */
export type AuthScreenPath = `/${Extract<ScreenOfTheMap, { file: `routes/auth/${string}` }>["path"]}`;
export { emailLinkPath, twoStepPath };

/** `/login?redirectTo=%2Ffaq`; no parameter when the destination is the home page. */
export function authHref(path: AuthScreenPath, redirectTo = "/"): string {
  return redirectTo === "/" ? path : `${path}?${new URLSearchParams({ redirectTo })}`;
}

/**
 * A destination the host answers itself rather than a screen of the app (the app sign-in's interaction,
 * /oidc/interaction/…, and the deletion the app opens, /account-deletion/from-app): reaching it after sign-in
 * must be a full page load, not a client-side navigation.
 */
export function isHostPath(path: string): boolean {
  return path.startsWith("/oidc/") || path.startsWith("/account-deletion/from-app");
}

/** A guest's way up, worded the same wherever it is offered: the sign-up screen upgrades the same account. */
export const guestUpgradeLabel = "升級成正式帳號";
