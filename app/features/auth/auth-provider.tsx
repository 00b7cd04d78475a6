import { createContext, useContext } from "react";
import type { AuthState } from "./auth-types";

// Placeholder until the sign-in layer lands: nobody is signed in and every action refuses.
const notReady = () => Promise.reject(new Error("登入功能尚未啟用"));
const signedOut: AuthState = {
  currentUser: null,
  loading: false,
  error: null,
  isEmailVerified: false,
  signup: notReady,
  login: notReady,
  loginWithSocial: notReady,
  loginAsGuest: notReady,
  upgradeGuest: notReady,
  logout: notReady,
  resendVerification: notReady,
  resetPassword: notReady,
  clearError: () => {},
};

const AuthContext = createContext<AuthState>(signedOut);

export function AuthProvider({ children }: { children: React.ReactNode }) {
  return <AuthContext.Provider value={signedOut}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}
