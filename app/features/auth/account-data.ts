import type { DeviceSession } from "./auth-client";
import type { SignInMethod } from "./sign-in-method-types";

/**
 * A copy of the account's data (Taiwan's Personal Data Protection Act, Art. 3 and 10), as `GET
 * /api/auth/account-data` answers it and the readable page shows it. `features` holds each feature's own part,
 * keyed by its user-data handler's name (`wishes`, `posts`, `storage`, …).
 */
export interface AccountData {
  exportedAt: string;
  profile: {
    id: string;
    displayName: string;
    email: string;
    emailVerified: boolean;
    photoURL: string | null;
    role: string;
    createdAt: string;
  };
  signInMethods: Omit<SignInMethod, "id">[];
  sessions: (Omit<DeviceSession, "id"> & { ipAddress: string | null; userAgent: string | null })[];
  features: Record<string, unknown>;
}
