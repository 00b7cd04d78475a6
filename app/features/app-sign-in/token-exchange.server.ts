import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";
import { firebaseIdTokenVerifier } from "~/features/firebase-import/firebase-id-token.server";
import type { RateLimiter } from "~/services/rate-limiter.server";
import { countFirebaseExchange } from "~/services/metrics.server";

export const tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";
const idTokenType = "urn:ietf:params:oauth:token-type:id_token";

type GrantFor = (input: { accountId: string; clientId: string; scope: string; ipAddress: string | null }) => Promise<{ jti: string }>;

// What this grant uses of oidc-provider's classes and context (the project's declarations for the package name only
// what the rest of the code reads).
interface SavedToken {
  save(): Promise<string>;
  expiration: number;
}
interface ProviderParts {
  AccessToken: new (init: Record<string, unknown>) => SavedToken;
  RefreshToken: new (init: Record<string, unknown>) => SavedToken;
  IdToken: new (claims: Record<string, unknown>, options: { ctx: unknown }) => { scope: string; issue(options: { use: string }): Promise<string> };
  Grant: { find(id: string): Promise<{ getOIDCScopeFiltered(scopes: Set<string>): string } | undefined> };
}
interface ExchangeContext {
  ip?: string;
  status: number;
  get(field: string): string;
  set(field: string, value: string): void;
  body?: unknown;
  oidc: { client?: { clientId: string; grantTypeAllowed(type: string): boolean }; params?: Record<string, unknown>; entity(name: string, value: unknown): void };
}

/**
 * OAuth 2.0 Token Exchange (RFC 8693) at /oidc/token for apps installed before the switch from Firebase: the app
 * presents the Firebase ID token it holds (`subject_token`, `subject_token_type` id_token) and gets our access token,
 * ID token (`sub` = the Firebase uid) and, with `offline_access`, a refresh token — no sign-in screen. Only for an
 * app whose OIDC_CLIENTS entry lists the grant (oidc-provider refuses the others: unauthorized_client), only with
 * FIREBASE_PROJECT_ID set, only for an imported account that is not locked. Every refusal is 400 invalid_grant and a
 * row of the security record, and counts for its address like a wrong client secret at the token endpoint
 * (`refusals`: RATE_LIMIT_SIGN_IN_PER_IP): past the limit every exchange from that address answers 429
 * `too_many_requests` with Retry-After.
 */
export async function registerTokenExchange(
  provider: Provider,
  {
    database,
    projectId,
    jwksUrl,
    grantFor,
    refusals,
  }: { database: DatabaseHandle; projectId: string; jwksUrl: string; grantFor: GrantFor; refusals: RateLimiter },
) {
  const [{ errors }, { default: internals }] = await Promise.all([import("oidc-provider"), import("oidc-provider/lib/helpers/weak_cache.js")]);
  const { findAccount } = (internals(provider) as unknown as { configuration: unknown }).configuration as {
    findAccount(ctx: unknown, id: string): Promise<{ claims(use: string, scope: string, claims: object, rejected: string[]): Promise<Record<string, unknown>> } | undefined>;
  };
  const verify = firebaseIdTokenVerifier({ projectId, jwksUrl });

  provider.registerGrantType(
    tokenExchangeGrant,
    async (koa: KoaContextWithOIDC) => {
      const ctx = koa as unknown as ExchangeContext;

      const parts = provider as unknown as ProviderParts;
      const client = ctx.oidc.client!;
      const params = ctx.oidc.params as Record<string, string | undefined>;
      const ip = ctx.ip ?? null;
      const limit = await refusals.check(ip ?? "unknown");
      if (!limit.allowed) {
        countFirebaseExchange("limited");
        ctx.status = 429;
        ctx.set("Retry-After", String(limit.retryAfterSeconds));
        ctx.body = { error: "too_many_requests", error_description: "嘗試次數過多，請稍後再試。" };
        return;
      }
      const refuse = async (reason: string, userId: string | null = null): Promise<never> => {
        await recordSecurityEvent(database, {
          event: "firebase-token-exchange",
          outcome: "refused",
          code: "invalid_grant",
          userId,
          ip,
          userAgent: ctx.get("user-agent") || null,
          detail: { app: client.clientId, reason },
        }).catch(() => {});
        await refusals.hit(ip ?? "unknown");
        countFirebaseExchange("refused");
        throw new errors.InvalidGrant(reason);
      };
      if (params.subject_token_type !== idTokenType) return refuse(`subject_token_type must be ${idTokenType}`);
      if (!params.subject_token) return refuse("subject_token missing");
      const checked = await verify(params.subject_token);
      if ("refused" in checked) return refuse(`Firebase ID token refused (${checked.refused})`);
      const uid = checked.uid;
      const imported = await database.db.selectFrom("firebase_imports").select("uid").where("uid", "=", uid).executeTakeFirst();
      if (!imported) return refuse("not an imported account");
      const account = await findAccount(koa, uid);
      // findAccount answers nothing for a locked account (the operator's lock, or disabled in Firebase).
      if (!account) return refuse("account locked or gone", uid);

      const made = await grantFor({ accountId: uid, clientId: client.clientId, scope: params.scope ?? "openid", ipAddress: ip });
      const grant = (await parts.Grant.find(made.jti))!;
      const requested = new Set((params.scope ?? "openid").split(" ").filter(Boolean));
      const scope = grant.getOIDCScopeFiltered(requested);
      const authTime = Math.floor(Date.now() / 1000);
      ctx.oidc.entity("Account", account);
      ctx.oidc.entity("Grant", grant);

      const at = new parts.AccessToken({ accountId: uid, client, grantId: made.jti, gty: "token_exchange", scope });
      ctx.oidc.entity("AccessToken", at);
      const accessToken = await at.save();

      let refreshToken: string | undefined;
      if (requested.has("offline_access") && scope.includes("offline_access") && client.grantTypeAllowed("refresh_token")) {
        const rt = new parts.RefreshToken({ accountId: uid, client, grantId: made.jti, gty: "token_exchange", rotations: 0, scope, authTime });
        ctx.oidc.entity("RefreshToken", rt);
        refreshToken = await rt.save();
      }
      const claims = await account.claims("id_token", scope, {}, []);
      const idToken = new parts.IdToken({ ...claims, auth_time: authTime }, { ctx: koa });
      idToken.scope = scope;
      const issued = await idToken.issue({ use: "idtoken" });

      await recordSecurityEvent(database, { event: "firebase-token-exchange", outcome: "success", userId: uid, ip, detail: { app: client.clientId, provider: checked.signInProvider } }).catch(() => {});
      countFirebaseExchange("success");
      ctx.body = {
        access_token: accessToken,
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: at.expiration,
        id_token: issued,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        scope,
      };
    },
    ["subject_token", "subject_token_type", "requested_token_type", "audience", "scope"],
  );
}
