/**
 * The site's roles: every account is a `user`; editors run the developer blog and the wishing well; admins
 * (管理員) open the operator console at /admin (with two-step sign-in or a passkey).
 */
export const roles = ["user", "editor", "admin"] as const;
export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return (roles as readonly unknown[]).includes(value);
}
