/** Query parameters that carry secrets or personal data (reset and verification links) and never go to analytics. */
export const PRIVATE_PARAMS = ["token", "email"] as const;

/** The address with every private query parameter removed; anything else (path, other parameters, hash) is kept. */
export function withoutPrivateParams(href: string): string {
  const url = new URL(href);
  for (const name of PRIVATE_PARAMS) url.searchParams.delete(name);
  return url.href;
}
