/** The identity-provider user record of the original §3, as the browser receives it from `/api/auth/me`. */
export interface IdentityRecord {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
  phoneNumber: string | null;
  tenantId: string | null;
  isAnonymous: boolean;
  providerData: Array<{ providerId: string; uid: string }>;
  metadata: { creationTime: string; lastSignInTime: string };
}
