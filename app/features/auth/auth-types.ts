/** The session user the browser keeps (mirrored in localStorage["user"]), as in the original §3. */
export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  emailVerified: boolean;
  isAnonymous?: boolean;
  photoURL?: string | null;
}

export type SocialProvider = "google" | "facebook" | "line" | "dev";

/** Exactly the state and actions of PRODUCT §5. Every failing action sets `error` and re-throws. */
export interface AuthState {
  currentUser: SessionUser | null;
  loading: boolean;
  error: string | null;
  isEmailVerified: boolean;
  signup(email: string, password: string, displayName: string): Promise<SessionUser>;
  login(email: string, password: string): Promise<SessionUser>;
  loginWithSocial(provider: SocialProvider): Promise<SessionUser>;
  loginAsGuest(): Promise<SessionUser>;
  upgradeGuest(email: string, password: string, displayName: string): Promise<SessionUser>;
  logout(): Promise<void>;
  resendVerification(): Promise<void>;
  resetPassword(email: string): Promise<void>;
  clearError(): void;
}
