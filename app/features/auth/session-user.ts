import type { SessionUser } from "./auth-client";
import type { IdentityRecord } from "./identity-record";

const storageKey = "user";

export function toSessionUser(record: IdentityRecord): SessionUser {
  return {
    uid: record.uid,
    email: record.email,
    displayName: record.displayName,
    emailVerified: record.emailVerified,
    isAnonymous: record.isAnonymous,
    photoURL: record.photoURL,
  };
}

/** localStorage["user"] mirrors the session user (PRODUCT §5); storage may be unavailable (private mode). */
export function mirrorSessionUser(user: SessionUser | null): void {
  try {
    if (user) window.localStorage.setItem(storageKey, JSON.stringify(user));
    else window.localStorage.removeItem(storageKey);
  } catch {
    // Storage disabled: the cookie session still works.
  }
}
