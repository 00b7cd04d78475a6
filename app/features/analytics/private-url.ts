/**
 * Query parameters that carry secrets or personal data and never go to analytics: the tokens of mailed links, and
 * every field name of the sign-in and account forms (should a form ever be submitted as GET before its script
 * loads, what was typed still stays out of page_location).
 */
export const PRIVATE_PARAMS = ["token", "email", "password", "confirm", "newPassword", "displayName", "name", "code", "intent"] as const;

/** The address with every private query parameter removed; anything else (path, other parameters, hash) is kept. */
export function withoutPrivateParams(href: string): string {
  const url = new URL(href);
  for (const name of PRIVATE_PARAMS) url.searchParams.delete(name);
  return url.href;
}
