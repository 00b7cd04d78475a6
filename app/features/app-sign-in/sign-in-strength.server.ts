import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { acrValues, signInProof } from "~/features/auth/sign-in-proof.server";

/**
 * `acr_values` honoured (decision 190): an app that asks for a two-step sign-in (`urn:taskhero:acr:mfa` among its
 * `acr_values`, and the one-step class not among them) gets one or an error, never silently less. The provider
 * goes to the interaction whenever its own session's `acr` is not one the app listed; the interaction
 * (provider-routes.server.ts) then signs the app in with the site session's proof, sends the parent to prove a
 * second factor, or answers `unmet_authentication_requirements`.
 */
export const supportedAcrValues = [acrValues.basic, acrValues.twoStep];

/** Whether `acr_values` (space-separated, in order of preference) can be met only by a two-step sign-in. */
export function asksForTwoStep(requested: unknown): boolean {
  const values = typeof requested === "string" ? requested.split(" ") : [];
  return values.includes(acrValues.twoStep) && !values.includes(acrValues.basic);
}

/** The `amr` and `acr` an ID token carries for a site session made by `stored` (the session row's `amr`). */
export function loginProof(stored: string | null | undefined): { amr?: string[]; acr: string } {
  const { amr, acr } = signInProof(stored);
  return { acr, ...(amr.length ? { amr } : {}) };
}

/** oidc-provider's interaction policy, with a login check for an app's two-step request the session does not meet. */
export async function interactionPolicy(): Promise<NonNullable<NonNullable<Configuration["interactions"]>["policy"]>> {
  const { interactionPolicy: policies } = await import("oidc-provider");
  const policy = policies.base();
  policy.get("login")!.checks.add(
    new policies.Check("two_step_required", "the app asked for a two-step sign-in", "login_required", (ctx: KoaContextWithOIDC) =>
      asksForTwoStep(ctx.oidc.params?.acr_values) && ctx.oidc.session?.acr !== acrValues.twoStep
        ? policies.Check.REQUEST_PROMPT
        : policies.Check.NO_NEED_TO_PROMPT,
    ),
  );
  return policy;
}
