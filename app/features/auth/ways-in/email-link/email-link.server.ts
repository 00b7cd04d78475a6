import { createHash, randomBytes } from "node:crypto";
import { data } from "react-router";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import * as z from "zod";
import { emailLinkPath } from "~/features/auth/auth-client";
import { authPaths } from "~/features/auth/auth-endpoints";
import { enqueueMail } from "~/features/mail/outbox.server";
import { emailLinkSignInEmail } from "~/features/mail/mail-templates.server";
import { endUnprovenAccess } from "~/features/auth/unproven-access.server";
import { emailLinkRequestSchema, emailLinkWayIn } from "./email-link";
import type { SignInKit, WayInServer } from "~/features/auth/way-in-plugins.server";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, readForm } from "~/services/form.server";

/** How long a mailed sign-in link works (the 15 minutes). */
export const emailLinkLifetimeSeconds = 15 * 60;

const identifierOf = (token: string) => `email-link:${createHash("sha256").update(token).digest("hex")}`;

/**
 * Sign-in by emailed link, written for the product instead of Better Auth's magic-link plugin (which keeps tokens
 * in plain text and signs in on a GET that mail scanners follow):
 * - `POST /email-link/request { email, redirectTo? }` answers the same whether or not the address has an account (no
 *   enumeration); an account gets a link to our own page (`/login/email-link?token=…`), valid 15 minutes;
 * - only the token's SHA-256 is stored (the verification table), so a database copy cannot sign anyone in;
 * - `POST /email-link/sign-in { token }` (the page's button) claims the record atomically: a second use, a
 *   second tab or an expired link gets INVALID_TOKEN. The link proves the address, so it is marked verified; on an
 *   account that was unverified, every credential and session set before it ends first (unproven-access.server.ts).
 * Two-step sign-in challenges this way in like a password (two-step.server.ts).
 */
function emailLinkSignIn(
  siteUrl: string,
  mail: {
    send: (to: { email: string; name: string }, link: string) => Promise<void>;
    /** The link has just proved the address of an account that was unverified (unproven-access.server.ts). */
    proved: (ctx: GenericEndpointContext, user: { id: string; email: string }) => Promise<void>;
  },
): BetterAuthPlugin {
  return {
    id: "email-link",
    endpoints: {
      requestEmailLink: createAuthEndpoint(
        authPaths.emailLinkRequest,
        // `redirectTo` (already a same-site path: redirect-rule.server.ts) rides along in the link.
        { method: "POST", body: z.object({ email: z.email(), redirectTo: z.string().max(2000).optional() }) },
        async (ctx) => {
          const email = ctx.body.email.trim().toLowerCase();
          const found = await ctx.context.internalAdapter.findUserByEmail(email);
          const user = found?.user;
          if (user && !(user as { isAnonymous?: boolean | null }).isAnonymous) {
            const token = randomBytes(32).toString("base64url");
            await ctx.context.internalAdapter.createVerificationValue({
              identifier: identifierOf(token),
              value: user.id,
              expiresAt: new Date(Date.now() + emailLinkLifetimeSeconds * 1000),
            });
            const link = new URL(emailLinkPath, siteUrl);
            link.searchParams.set("token", token);
            if (ctx.body.redirectTo && ctx.body.redirectTo !== "/") link.searchParams.set("redirectTo", ctx.body.redirectTo);
            await mail.send({ email: user.email, name: user.name }, link.toString());
          }
          return ctx.json({ status: true });
        },
      ),
      signInWithEmailLink: createAuthEndpoint(
        authPaths.emailLinkSignIn,
        { method: "POST", body: z.object({ token: z.string().min(1).max(200) }) },
        async (ctx) => {
          const claimed = await ctx.context.internalAdapter.consumeVerificationValue(identifierOf(ctx.body.token));
          const user = claimed ? await ctx.context.internalAdapter.findUserById(claimed.value) : null;
          if (!user) throw new APIError("UNAUTHORIZED", { code: "INVALID_TOKEN", message: "Invalid or used link" });
          if (!user.emailVerified) await mail.proved(ctx, user);
          const verified = user.emailVerified ? user : await ctx.context.internalAdapter.updateUser(user.id, { emailVerified: true, twoFactorEnabled: false });
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user: verified });
          return ctx.json({ status: true });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

/**
 * `/login/email-link`: without a token, asks for a link (the same answer whether or not the address has an
 * account); with the mailed token, its button signs in. A GET of the page never spends the link.
 */
async function emailLinkScreenAction(request: Request, { call, fail, signedIn, destination }: SignInKit) {
  const fields = await readForm(request);
  if (fields.intent === "sign-in") {
    const token = fields.token || new URL(request.url).searchParams.get("token") || "";
    const answer = await call(request, authPaths.emailLinkSignIn, { token });
    if (!answer.ok) return fail(answer, {}, {}, "sign-in");
    return signedIn(request, fields, answer);
  }
  const values = { email: fields.email ?? "" };
  const parsed = emailLinkRequestSchema.safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, values, "request");
  // The mailed link leads on to the same destination (an app's sign-in, too).
  const answer = await call(request, authPaths.emailLinkRequest, { email: parsed.data.email, redirectTo: destination(request, fields) }, undefined, fields);
  if (!answer.ok) return fail(answer, values, { "auth/invalid-email": "email" }, "request");
  return data<FormResult>({ done: true, values, intent: "request" });
}

export const wayInServer: WayInServer = {
  unit: emailLinkWayIn,
  screenAction: emailLinkScreenAction,
  plugins: ({ env, database }) => ({
    plugins: [
      emailLinkSignIn(env.SITE_URL, {
        send: async (to, link) => void (await enqueueMail(database.db, emailLinkSignInEmail({ productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL }, to.email, link))),
        // The link proves the address: on an unverified account nothing set before it stays.
        proved: (ctx, user) => endUnprovenAccess(ctx.context, database.db, env, user),
      }),
    ],
  }),
};
