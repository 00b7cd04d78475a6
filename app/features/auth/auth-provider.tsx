import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { AuthError, authPaths, authRequest, configureAuthOrigin, fetchIdentity, getAuthOrigin, resetPasswordPage, type SessionUser, type SocialProvider } from "./auth-client";
import { mirrorSessionUser, toSessionUser } from "./session-user";

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

const notInsideProvider = () => Promise.reject(new AuthError("auth/internal-error"));
// Outside <AuthProvider> (e.g. a component rendered alone in a test) nobody is signed in and actions refuse.
const outsideProvider: AuthState = {
  currentUser: null,
  loading: false,
  error: null,
  isEmailVerified: false,
  signup: notInsideProvider,
  login: notInsideProvider,
  loginWithSocial: notInsideProvider,
  loginAsGuest: notInsideProvider,
  upgradeGuest: notInsideProvider,
  logout: notInsideProvider,
  resendVerification: notInsideProvider,
  resetPassword: notInsideProvider,
  clearError: () => {},
};

const AuthContext = createContext<AuthState>(outsideProvider);
/** Reloads the session after something outside AuthState changed it (verification link, account deletion). */
const RefreshContext = createContext<() => Promise<SessionUser | null>>(async () => null);

/** The mounted provider's session reload, for route clientActions (set while an AuthProvider is mounted). */
let mountedRefresh: (() => Promise<unknown>) | null = null;

/**
 * For a sign-in form's `clientAction`: runs the server action, then reloads the session before React Router
 * follows the action's redirect, so the next screen already knows who is signed in.
 */
export async function withSessionRefresh<T>(serverAction: () => Promise<T>): Promise<T> {
  try {
    return await serverAction();
  } finally {
    await mountedRefresh?.().catch(() => null);
  }
}

const toAuthError = (error: unknown) => (error instanceof AuthError ? error : new AuthError("auth/internal-error"));

/**
 * The browser side of the sign-in layer (PRODUCT §5). Starts with `loading: true` on every page and the user the
 * server rendered the page for (the root loader's; nobody on a prerendered page), and asks the server for the
 * session after hydration.
 */
export function AuthProvider({ children }: { children: React.ReactNode }) {
  const env = usePublicEnv();
  const serverUser = (useRouteLoaderData("root") as { sessionUser?: SessionUser | null } | undefined)?.sessionUser ?? null;
  const [currentUser, setCurrentUser] = useState<SessionUser | null>(serverUser);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const userRef = useRef<SessionUser | null>(serverUser);

  const applyUser = useCallback((user: SessionUser | null) => {
    userRef.current = user;
    setCurrentUser(user);
    mirrorSessionUser(user);
    return user;
  }, []);

  const refresh = useCallback(async () => {
    const record = await fetchIdentity();
    return applyUser(record ? toSessionUser(record) : null);
  }, [applyUser]);

  useEffect(() => {
    mountedRefresh = refresh;
    return () => {
      if (mountedRefresh === refresh) mountedRefresh = null;
    };
  }, [refresh]);

  // Strings, not the env object: the root loader hands over a new object on every navigation.
  const siteUrl = env.siteUrl;
  const allowedHostnames = env.allowedHostnames.join(",");
  useEffect(() => {
    configureAuthOrigin({ siteUrl, allowedHostnames: allowedHostnames.split(",") });
    let live = true;
    // A transition: a part of the page still waiting for its code (<HydrateLater>) keeps the server's markup until
    // the code has arrived, where an urgent update would have it rendered anew (and blank meanwhile).
    const settle = (user: SessionUser | null) =>
      startTransition(() => {
        applyUser(user);
        setLoading(false);
      });
    fetchIdentity().then(
      (record) => live && settle(record ? toSessionUser(record) : null),
      () => live && settle(null),
    );
    return () => {
      live = false;
    };
  }, [siteUrl, allowedHostnames, applyUser]);

  const value = useMemo<AuthState>(() => {
    // Every action stores its failure as the current message and re-throws it.
    async function run<T>(action: () => Promise<T>): Promise<T> {
      setError(null);
      try {
        return await action();
      } catch (caught) {
        const failure = toAuthError(caught);
        setError(failure.message);
        throw failure;
      }
    }
    const signedInUser = async () => {
      const user = await refresh();
      if (!user) throw new AuthError("auth/no-current-user");
      return user;
    };
    return {
      currentUser,
      loading,
      error,
      isEmailVerified: Boolean(currentUser?.emailVerified),
      signup: (email, password, displayName) =>
        run(async () => {
          await authRequest(authPaths.signUpEmail, { body: { email, password, name: displayName }, botCheck: true });
          return signedInUser();
        }),
      login: (email, password) =>
        run(async () => {
          await authRequest(authPaths.signInEmail, { body: { email, password } });
          return signedInUser();
        }),
      loginWithSocial: (provider: SocialProvider) =>
        run(async () => {
          // Loaded on demand: the pop-up code stays off the first load of every page.
          const { signInWithPopup } = await import("./social-popup");
          await signInWithPopup(provider, getAuthOrigin());
          return signedInUser();
        }),
      loginAsGuest: () =>
        run(async () => {
          await authRequest(authPaths.signInAnonymous, { body: {}, botCheck: true });
          return signedInUser();
        }),
      upgradeGuest: (email, password, displayName) =>
        run(async () => {
          if (!userRef.current?.isAnonymous) throw new AuthError("auth/not-anonymous");
          await authRequest(authPaths.guestUpgrade, { body: { email, password, name: displayName }, botCheck: true });
          return signedInUser();
        }),
      logout: () =>
        run(async () => {
          mirrorSessionUser(null);
          setError(null);
          await authRequest(authPaths.signOut, { body: {} });
          applyUser(null);
        }),
      resendVerification: () =>
        run(async () => {
          const email = userRef.current?.email;
          if (!email) throw new AuthError("auth/no-current-user");
          await authRequest(authPaths.sendVerificationEmail, { body: { email }, botCheck: true });
        }),
      resetPassword: (email) =>
        run(async () => {
          if (!email.trim()) throw new AuthError("auth/missing-email");
          await authRequest(authPaths.requestPasswordReset, {
            body: { email, redirectTo: `${window.location.origin}${resetPasswordPage}` },
            botCheck: true,
          });
        }),
      clearError: () => setError(null),
    };
  }, [currentUser, loading, error, refresh, applyUser]);

  return (
    <RefreshContext.Provider value={refresh}>
      <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
    </RefreshContext.Provider>
  );
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

export function useAuthRefresh() {
  return useContext(RefreshContext);
}
