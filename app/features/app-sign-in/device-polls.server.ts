import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC, ProviderContext } from "oidc-provider";
import type { RateLimitStore } from "~/services/rate-limiter.server";
import { TokenAlreadyUsed } from "./provider-records.server";

/**
 * A child's tablet polling the token endpoint with its device code (RFC 8628 section 3.4, 3.5, decision 1011):
 * - the device authorization answer says how often it may poll, `interval` (5 s);
 * - a poll sooner than that after the previous one is answered `slow_down`, and from then on the interval is 5 s
 *   longer for that code (for this and every later poll, as section 3.5 asks); a second of slack allows for the network;
 * - of two polls at the same moment (a tablet whose app polls twice, two instances) one wins and keeps its tokens:
 *   the other is answered `slow_down` (it polled too soon) or, once the code is used, `invalid_grant`. A used code
 *   presented again does not end the tablet's sign-in (oidc-provider's reuse rule for codes): the code stays on the
 *   tablet, and a lost answer retried must not sign it out.
 * The counters live in the sign-in layer's rate-limit store (Redis when configured: every instance counts together).
 */
export const devicePollSeconds = 5;
const slowDownStep = 5;
/** The counters outlive any device code (the provider's default lifetime is 10 minutes). */
const codeLifetimeSeconds = 15 * 60;
export const deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code";

type GrantHandler = (ctx: KoaContextWithOIDC) => Promise<void>;
/** Set while the device-code grant runs: the reads of a device code that are a poll's. */
const polling = new AsyncLocalStorage<true>();

/** The device authorization answer names the polling interval (the provider leaves it out: the tablet would guess). */
export async function answerWithInterval(ctx: ProviderContext, next: () => Promise<void>) {
  await next();
  const body = ctx.body as { device_code?: string; interval?: number } | undefined;
  if (ctx.oidc?.route === "device_authorization" && body && typeof body === "object" && body.device_code) body.interval = devicePollSeconds;
}

/** The device-code grant, wrapped around oidc-provider's own handler with the polling rules above. */
export async function guardDevicePolls(provider: Provider, store: RateLimitStore) {
  const [{ default: internals }, { errors }] = await Promise.all([import("oidc-provider/lib/helpers/weak_cache.js"), import("oidc-provider")]);
  const { grantTypeHandlers, grantTypeParams, grantTypeDupes } = internals(provider);
  const deviceGrant = grantTypeHandlers.get(deviceCodeGrantType) as GrantHandler | undefined;
  if (!deviceGrant) return;
  // A used code read by a poll is refused here, before oidc-provider sees it: its own rule for a consumed code
  // revokes the whole grant, which signed the winner of a race out when the loser read the code just after the
  // winner used it (on PostgreSQL, 1 race in 20).
  const DeviceCode = (provider as unknown as { DeviceCode: { find(id: string, options: { ignoreExpiration: boolean }): Promise<{ consumed?: unknown } | undefined> } }).DeviceCode;
  const findCode = DeviceCode.find.bind(DeviceCode);
  DeviceCode.find = async (id, options) => {
    const code = await findCode(id, options);
    if (code?.consumed && polling.getStore()) throw new errors.InvalidGrant("device code already used");
    return code;
  };

  provider.registerGrantType(
    deviceCodeGrantType,
    async (ctx) => {
      const presented = String(ctx.oidc.params?.device_code ?? "");
      if (presented) {
        // Keyed by a hash: the code itself is a credential and does not belong in Redis.
        const key = createHash("sha256").update(presented).digest("base64url");
        const slowDowns = (await store.peek(`device-slow:${key}`)).count;
        const interval = devicePollSeconds + slowDownStep * slowDowns;
        const poll = await store.hit(`device-poll:${key}:${interval}`, interval - 1);
        if (poll.count > 1) {
          await store.hit(`device-slow:${key}`, codeLifetimeSeconds);
          // The longer interval counts from this poll.
          await store.hit(`device-poll:${key}:${interval + slowDownStep}`, interval + slowDownStep - 1);
          throw new errors.SlowDown();
        }
      }
      try {
        await polling.run(true, () => deviceGrant(ctx));
      } catch (error) {
        // Another poll consumed the code between this one's read and its update (provider-records.server.ts).
        if (error instanceof TokenAlreadyUsed) throw new errors.SlowDown();
        throw error;
      }
    },
    // Registered again with the parameters (and allowed duplicates) the provider gave its own.
    [...(grantTypeParams.get(deviceCodeGrantType) ?? [])],
    grantTypeDupes.has(deviceCodeGrantType) ? [...grantTypeDupes.get(deviceCodeGrantType)!] : undefined,
  );
}
