/** The site's roles: every account is a `user`; editors run the developer blog and the wishing well. */
export const roles = ["user", "editor"] as const;
export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return (roles as readonly unknown[]).includes(value);
}
