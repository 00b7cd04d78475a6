import type { SessionUser } from "./auth-client";

/** The display name, else the part of the email before `@`, else 使用者 (PRODUCT §4). */
export function displayNameOf(user: Pick<SessionUser, "displayName" | "email">): string {
  return user.displayName?.trim() || user.email?.split("@")[0]?.trim() || "使用者";
}
