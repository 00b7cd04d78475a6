import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { commonPasswordMessage, passwordProblem, type PasswordPolicy } from "./password-policy";
import { isCommonPassword } from "./common-passwords.server";
import { authEndpoint, endpointsWhere } from "./auth-endpoints";

/** The longest display name, in characters, wherever one is set (sign-up, guest upgrade, profile update). */
export const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * The product's own rules around the sign-in layer's endpoints, each applied where the endpoint table says:
 * - an unverified user keeps the session they got at sign-up, but a later password sign-in is refused with
 *   EMAIL_NOT_VERIFIED (checked after the password, so a wrong password still answers "invalid credential");
 * - every new password meets the configured policy and is not on the common-password list;
 * - a display name is at most DISPLAY_NAME_MAX_LENGTH characters;
 * - deleting an account that has a password needs that password again.
 */
export function signInRules(policy: PasswordPolicy): BetterAuthPlugin {
  return {
    id: "sign-in-rules",
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.newPassword),
          handler: createAuthMiddleware(async (ctx) => {
            const field = authEndpoint(ctx.path)?.newPassword;
            const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined;
            if (typeof password !== "string") return;
            const problem = passwordProblem(password, policy) ?? (isCommonPassword(password) ? commonPasswordMessage : null);
            if (problem) throw new APIError("BAD_REQUEST", { code: "WEAK_PASSWORD", message: problem });
          }),
        },
        {
          matcher: endpointsWhere((row) => row.displayName),
          handler: createAuthMiddleware(async (ctx) => {
            const name = (ctx.body as Record<string, unknown> | undefined)?.name;
            if (typeof name === "string" && name.trim().length > DISPLAY_NAME_MAX_LENGTH) {
              throw new APIError("BAD_REQUEST", { code: "DISPLAY_NAME_TOO_LONG", message: "Display name too long" });
            }
          }),
        },
        {
          matcher: endpointsWhere((row) => row.passwordToDelete),
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            if (!current || (ctx.body as { password?: unknown } | undefined)?.password) return;
            const credential = await ctx.context.internalAdapter.findCredentialAccount(current.user.id);
            if (credential?.password) {
              throw new APIError("BAD_REQUEST", { code: "PASSWORD_REQUIRED", message: "Password required" });
            }
          }),
        },
      ],
      after: [
        {
          matcher: endpointsWhere((row) => row.refuseUnverifiedEmail),
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.newSession;
            if (!signedIn || signedIn.user.emailVerified) return;
            await ctx.context.internalAdapter.deleteSession(signedIn.session.token);
            // Send no cookie at all: the browser keeps whatever session it had (a guest stays that guest).
            ctx.context.responseHeaders?.delete("set-cookie");
            throw new APIError("FORBIDDEN", { code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
          }),
        },
      ],
    },
  };
}
