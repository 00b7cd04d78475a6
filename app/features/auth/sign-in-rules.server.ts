import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { commonPasswordMessage, passwordProblem, type PasswordPolicy } from "./password-policy";
import { isCommonPassword } from "./common-passwords.server";
import { authEndpointFor, authPaths, endpointsWhere } from "./auth-endpoints";
import { displayNameMessages, displayNameProblem } from "./display-name";
import { contextPasswordMessage, leansOnContextWords, userContextWords } from "./password-policy-context.server";
import { bodyShapeProblem, controlCharacterProblem } from "./body-boundary";

/**
 * Whose password is being set: the email and name in the body (sign-up, guest upgrade), the signed-in account
 * (change of password), or the account a reset link was made for.
 */
async function passwordOwner(ctx: GenericEndpointContext): Promise<{ email?: string | null; name?: string | null }> {
  const body = (ctx.body ?? {}) as { email?: unknown; name?: unknown; token?: unknown };
  if (typeof body.email === "string") return { email: body.email, name: typeof body.name === "string" ? body.name : null };
  if (ctx.path === authPaths.resetPassword && typeof body.token === "string") {
    const link = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${body.token}`);
    return (link && (await ctx.context.internalAdapter.findUserById(link.value))) ?? {};
  }
  return (await getSessionFromCtx(ctx))?.user ?? {};
}

/** The longest profile photo address: ours are about 200 characters. */
const PHOTO_URL_MAX_LENGTH = 1000;

/** A profile photo is a file of our own storage (what the avatar upload sets), or none. */
function isOwnPhoto(image: unknown, siteUrl: string): boolean {
  if (image === null || image === "") return true;
  if (typeof image !== "string" || image.length > PHOTO_URL_MAX_LENGTH || !URL.canParse(image)) return false;
  const url = new URL(image);
  return url.origin === new URL(siteUrl).origin && url.pathname.startsWith("/v0/b/") && !url.username && !url.password;
}

/**
 * The product's own rules around the sign-in layer's endpoints, each applied where the endpoint table says:
 * - an unverified user keeps the session they got at sign-up, but a later password sign-in is refused with
 *   EMAIL_NOT_VERIFIED (checked after the password, so a wrong password still answers "invalid credential");
 * - every new password meets the configured policy, is not on the common-password list and does not lean on a
 *   context word (the site's, or the account's own email and name);
 * - a display name is at most DISPLAY_NAME_MAX_LENGTH characters, without hidden characters or links, and a
 *   profile photo is a file of our own storage (display-name.ts);
 * - deleting an account that has a password needs that password again;
 * - every body is a JSON object and no string in it or the query holds a control character (body-boundary.ts):
 *   first the shape, so no rule reads a field of a string; the characters last, so a name keeps its own message.
 */
export function signInRules(rules: { policy: PasswordPolicy; siteWords: readonly string[]; siteUrl: string }): BetterAuthPlugin {
  const { policy, siteWords } = rules;
  return {
    id: "sign-in-rules",
    hooks: {
      before: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            if (bodyShapeProblem(ctx.body)) throw new APIError("BAD_REQUEST", { code: "INVALID_REQUEST_BODY", message: "Body must be an object" });
          }),
        },
        {
          matcher: endpointsWhere((row) => row.newPassword),
          handler: createAuthMiddleware(async (ctx) => {
            const field = authEndpointFor(ctx)?.newPassword;
            const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined;
            if (typeof password !== "string") return;
            const problem = passwordProblem(password, policy) ?? (isCommonPassword(password) ? commonPasswordMessage : null);
            if (problem) throw new APIError("BAD_REQUEST", { code: "WEAK_PASSWORD", message: problem });
            const words = [...siteWords, ...userContextWords(await passwordOwner(ctx))];
            if (leansOnContextWords(password, words)) throw new APIError("BAD_REQUEST", { code: "WEAK_PASSWORD", message: contextPasswordMessage });
          }),
        },
        {
          matcher: endpointsWhere((row) => row.displayName),
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as Record<string, unknown>;
            // A name is a string when given (Better Auth's update-user takes any value and stores it).
            if ("name" in body && typeof body.name !== "string") {
              throw new APIError("BAD_REQUEST", { code: "DISPLAY_NAME_INVALID", message: "Display name must be text" });
            }
            const problem = typeof body.name === "string" ? displayNameProblem(body.name) : null;
            if (problem === "too-long") throw new APIError("BAD_REQUEST", { code: "DISPLAY_NAME_TOO_LONG", message: "Display name too long" });
            if (problem) throw new APIError("BAD_REQUEST", { code: "DISPLAY_NAME_INVALID", message: displayNameMessages[problem] });
            if (authEndpointFor(ctx)?.photo && "image" in body && !isOwnPhoto(body.image, rules.siteUrl)) {
              throw new APIError("BAD_REQUEST", { code: "PHOTO_URL_INVALID", message: "Photo must be a file of this site" });
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
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            if (controlCharacterProblem(ctx.body, ctx.query)) {
              throw new APIError("BAD_REQUEST", { code: "INVALID_REQUEST_BODY", message: "Control character in request" });
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
