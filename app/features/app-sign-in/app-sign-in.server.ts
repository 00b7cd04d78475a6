import { Hono } from "hono";
import type { AuthService } from "~/features/auth/index.server";
import { accountName } from "~/features/auth";
import { createAppProvider, providerPaths, type AppProvider } from "./provider.server";
import { appSignInRoutes } from "./provider-routes.server";
import { registeredClients } from "./registered-clients.server";
import { deviceRoutes } from "./device-flow.server";
import { backchannelLogout, backchannelTransport } from "./backchannel-logout.server";
import { mayReadFamily, mayStartDeletion, storageRights } from "./app-scopes.server";
import { fixedWindowLimiter, sharedRateLimitStore } from "~/services/rate-limiter.server";
import type { ServerEnv } from "~/config/env.server";

/**
 * The app's sign-in, as the host mounts it: the OpenID provider's routes (discovery, /oidc/*) and, for file
 * storage, who an app's access token belongs to. Built on the sign-in layer's service and database, which holds
 * the provider's records too (never in Redis: a Redis restart signs nobody out).
 */
export function createAppSignIn({ authService }: { authService: AuthService }) {
  const { env, database } = authService;
  const clients = registeredClients(env);
  const logout = backchannelLogout({ database, clients });
  // The process that delivers the outbox looks for ended sign-ins, and signs and sends their notices (decision 703).
  const noneToFind = async () => 0;
  authService.mailSender.useBackchannel(backchannelTransport(env, database, clients.anyBackchannel() ? logout.sweep : noneToFind));
  let made: Promise<AppProvider> | undefined;
  const appProvider = () => (made ??= createAppProvider({ env, database, clients, logout, rateLimitStore: authService.rateLimitStore }));

  const sessionUser = async (headers: Headers) => {
    const current = await authService.readSession(headers);
    if (!current) return null;
    const { user, session } = current;
    const twoStepOn = Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled);
    const passkey = twoStepOn ? undefined : await database.db.selectFrom("passkey").select("id").where("user_id", "=", user.id).executeTakeFirst();
    return {
      id: user.id,
      name: user.name,
      // The address the parent gave, else their phone number: a phone account's placeholder is never shown.
      email: accountName(user.email, (user as { phoneNumber?: string | null }).phoneNumber),
      isAnonymous: Boolean((user as { isAnonymous?: boolean | null }).isAnonymous),
      // A session begins at sign-in and again at each confirmation of identity (recent-sign-in.server.ts).
      signedInAt: new Date(session.createdAt).getTime(),
      amr: (session as { amr?: string | null }).amr ?? null,
      hasSecondFactor: twoStepOn || Boolean(passkey),
    };
  };

  return {
    routes: new Hono()
      .route("/", deviceRoutes({
        env,
        database,
        appProvider,
        sessionUser,
        codeGuesses: {
          perAddress: fixedWindowLimiter(authService.rateLimitStore, env.RATE_LIMIT_DEVICE_CODE_PER_IP, "device-code-ip:"),
          perAccount: fixedWindowLimiter(authService.rateLimitStore, env.RATE_LIMIT_DEVICE_CODE_PER_ACCOUNT, "device-code-account:"),
        },
      }))
      .route("/", appSignInRoutes({
        env,
        appProvider,
        sessionUser,
        clientAuthFailures: fixedWindowLimiter(sharedRateLimitStore(), env.RATE_LIMIT_SIGN_IN_PER_IP, "oidc-client-auth:"),
      })),
    /**
     * The user of an app's access token and what it may do in storage, or null when it is unknown, expired or
     * revoked, its grant (and so its session) has ended, it was not granted the storage scope, or its app is not
     * first-party: the same answer userinfo would give, read from the shared records at every call.
     */
    async accessTokenUser(token: string): Promise<AppTokenUser | null> {
      const { provider, records, clients } = await appProvider();
      const accessToken = await provider.AccessToken.find(token);
      if (!accessToken || accessToken.isExpired || !accessToken.grantId) return null;
      const rights = storageRights(accessToken.scope);
      if (!rights.files || !clients.isFirstParty(accessToken.clientId)) return null;
      return (await records("Grant").find(accessToken.grantId)) ? { uid: accessToken.accountId, editor: rights.editor } : null;
    },
    /**
     * For `GET /api/family` and `POST /api/app/account-deletion`: the account (a parent, or a child's tablet) of a
     * live access token, whether it was granted the `family` scope, and whether it may start the account's deletion
     * (a first-party app, or the `account:delete` scope); null when the token is unknown, expired or revoked or its
     * grant has ended.
     */
    async accessTokenAccount(token: string): Promise<{ accountId: string; family: boolean; deletion: boolean } | null> {
      const { provider, records, clients } = await appProvider();
      const accessToken = await provider.AccessToken.find(token);
      if (!accessToken || accessToken.isExpired || !accessToken.grantId) return null;
      if (!(await records("Grant").find(accessToken.grantId))) return null;
      return { accountId: accessToken.accountId, family: mayReadFamily(accessToken.scope), deletion: mayStartDeletion(clients.isFirstParty(accessToken.clientId), accessToken.scope) };
    },
  };
}

export type AppSignIn = ReturnType<typeof createAppSignIn>;

/** Whom an app's access token speaks for in storage, and whether its grant carries an editor's rights. */
export interface AppTokenUser {
  uid: string;
  editor: boolean;
}

/** Where the browser may be sent at the end of an app's sign-in or sign-out, as CSP sources (the site's forms lead there). */
export function appRedirectSources(env: ServerEnv): string[] {
  return registeredClients(env).redirectSources();
}

/**
 * The provider's endpoints read their request body from the Node stream themselves (oidc-provider caps it at
 * 56 KB). The host must not touch it: a body stream opened before the provider is ready (on a fresh instance its
 * first request waits for the provider to be made) leaves it nothing to read, and the token or revocation request
 * is refused as if it named no client. The interaction (the consent form) is the host's own.
 */
export const providerReadsBody = (path: string) => path.startsWith("/oidc/") && !path.startsWith(`${providerPaths.interaction}/`);
