import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { getLogger } from "~/services/logger.server";
import { countTokenRefresh } from "~/services/metrics.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";
import { TokenAlreadyUsed, type ProviderRecords } from "./provider-records.server";

/** How long the previous refresh token still gets its answer again, while its successor is unused. */
export const refreshGraceSeconds = 30;

type GrantHandler = (ctx: KoaContextWithOIDC) => Promise<void>;
type TokenAnswer = Record<string, unknown> & { refresh_token?: string; expires_in?: number };

/**
 * The token endpoint's two grants, wrapped around oidc-provider's own handlers:
 * - a code or refresh token presented twice at the same moment loses the race in `consume` (one conditional
 *   update, provider-records.server.ts): the family has ended there, and the loser is answered invalid_grant;
 * - a refresh token presented again after its answer was lost (the client never saw the successor) gets the same
 *   answer again within `refreshGraceSeconds`, as long as the successor is unused and the grant alive; any other
 *   reuse ends the family (oidc-provider's reuse detection) and writes an audit line.
 */
export async function guardTokenGrants(provider: Provider, records: ProviderRecords, database: DatabaseHandle) {
  const [{ default: internals }, { errors }] = await Promise.all([import("oidc-provider/lib/helpers/weak_cache.js"), import("oidc-provider")]);
  const handlers = internals(provider).grantTypeHandlers as Map<string, GrantHandler>;
  const refreshGrant = handlers.get("refresh_token")!;
  const codeGrant = handlers.get("authorization_code")!;

  /** oidc-provider's handler, with a lost `consume` race and a replayed token answered invalid_grant and audited. */
  const refusingReuse = (handler: GrantHandler, label: string, event: string): GrantHandler => async (ctx) => {
    try {
      await handler(ctx);
    } catch (error) {
      if (error instanceof TokenAlreadyUsed) {
        await audit(database, ctx, event, error.grantId);
        throw new errors.InvalidGrant(`${label} already used`);
      }
      if ((error as { error_detail?: string }).error_detail === `${label} already used`) {
        const entities = ctx.oidc.entities as Record<string, { grantId?: string } | undefined>;
        await audit(database, ctx, event, entities.RefreshToken?.grantId ?? entities.AuthorizationCode?.grantId ?? null);
      }
      throw error;
    }
  };
  const exchangeCode = refusingReuse(codeGrant, "authorization code", "app-code-reuse");
  // The rotation's writes are made once its answer is complete (provider-records.server.ts: `rotation`).
  const rotate = refusingReuse(
    (ctx) => records.rotation(async () => {
      await refreshGrant(ctx);
      return ctx.body as TokenAnswer;
    }),
    "refresh token",
    "app-refresh-token-reuse",
  );

  // Registered again with the parameters (and allowed duplicates) the provider gave its own: `resource` among them.
  const { grantTypeParams, grantTypeDupes } = internals(provider);
  const sameAs = (name: string) => [[...(grantTypeParams.get(name) ?? [])], grantTypeDupes.get(name) && [...grantTypeDupes.get(name)!]] as [string[], string[] | undefined];
  provider.registerGrantType("authorization_code", exchangeCode, ...sameAs("authorization_code"));
  provider.registerGrantType(
    "refresh_token",
    async (ctx) => {
      const presented = String(ctx.oidc.params!.refresh_token ?? "");
      const kept = presented ? await records.keptAnswer(presented, ctx.oidc.client!.clientId) : undefined;
      if (kept && Date.now() - kept.consumedAt <= refreshGraceSeconds * 1000) {
        ctx.body = againAnswer(kept.body, kept.consumedAt);
        return;
      }
      try {
        await rotate(ctx);
        countTokenRefresh("success");
      } catch (error) {
        countTokenRefresh((error as { error_detail?: string }).error_detail === "refresh token already used" ? "reuse" : "refused");
        throw error;
      }
    },
    ...sameAs("refresh_token"),
  );
}

/** The kept answer once more, its access token's remaining lifetime counted from when it was first given. */
function againAnswer(body: TokenAnswer, consumedAt: number): TokenAnswer {
  if (typeof body.expires_in !== "number") return body;
  return { ...body, expires_in: Math.max(0, body.expires_in - Math.floor((Date.now() - consumedAt) / 1000)) };
}

/**
 * One audit line (the sign-in layer's shape, auth-logging.server.ts): which app, whose family, never a token; and
 * the same event in the security record.
 */
async function audit(database: DatabaseHandle, ctx: KoaContextWithOIDC, event: string, grantId: string | null) {
  const entities = ctx.oidc.entities as { Account?: { accountId?: string }; RefreshToken?: { accountId?: string }; AuthorizationCode?: { accountId?: string } };
  const accountId = entities.Account?.accountId ?? entities.RefreshToken?.accountId ?? entities.AuthorizationCode?.accountId;
  await recordSecurityEvent(database, {
    event,
    outcome: "refused",
    code: "invalid_grant",
    userId: accountId ?? null,
    ip: (ctx as { ip?: string }).ip ?? null,
    userAgent: (ctx as { get?(field: string): string }).get?.("user-agent") || null,
    detail: { app: ctx.oidc.client?.clientId ?? null },
  }).catch((err: unknown) => getLogger().error({ err, authEvent: event }, "security record not written"));
  getLogger().warn(
    { authEvent: event, outcome: "refused", status: 400, code: "invalid_grant", clientId: ctx.oidc.client?.clientId, ...(grantId ? { grantId } : {}), ...(accountId ? { userId: accountId } : {}) },
    "sign-in layer event",
  );
}
