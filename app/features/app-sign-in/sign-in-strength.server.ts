import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { acrValues, signInProof } from "~/features/auth/index.server";

/**
 * `acr_values` honoured (decision 190): an app that asks for a two-step sign-in (`urn:taskhero:acr:mfa` among its
 * `acr_values`, and the one-step class not among them), or insists on a class through the `claims` parameter
 * (essential `acr`, decision 1010), gets one or an error, never silently less. The provider
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

type AcrRequest = { essential?: unknown; value?: unknown; values?: unknown };

/** The ID token's `acr` request of a `claims` parameter (a JSON string), if any. */
function acrRequestOf(claims: unknown): AcrRequest | null | undefined {
  if (typeof claims !== "string") return undefined;
  try {
    return (JSON.parse(claims) as { id_token?: { acr?: AcrRequest | null } } | null)?.id_token?.acr;
  } catch {
    return undefined;
  }
}

/**
 * The classes an app insists on through the `claims` parameter (OpenID Connect Core 5.5.1.1:
 * `{"id_token":{"acr":{"essential":true,"values":[…]}}}`, or one `value`), in its order of preference; undefined
 * when it asks for none as essential. A voluntary `acr` request changes nothing (the ID token names the class met).
 */
export function essentialAcr(claims: unknown): string[] | undefined {
  const acr = acrRequestOf(claims);
  if (!acr || acr.essential !== true) return undefined;
  if (Array.isArray(acr.values)) return acr.values.filter((value: unknown): value is string => typeof value === "string");
  return typeof acr.value === "string" ? [acr.value] : undefined;
}

/**
 * What the app's request requires of the sign-in, as the classes that would do (in its order of preference):
 * an essential `acr` of the `claims` parameter, else `acr_values` that only a two-step sign-in meets (decision 190);
 * undefined when any sign-in will do.
 */
export function requiredAcr(params: Readonly<Record<string, unknown>>): string[] | undefined {
  return essentialAcr(params.claims) ?? (asksForTwoStep(params.acr_values) ? [acrValues.twoStep] : undefined);
}

/** The classes a sign-in of class `acr` meets: a two-step one meets the basic class too. */
export const classesMet = (acr: string): string[] => (acr === acrValues.twoStep ? [acrValues.twoStep, acrValues.basic] : [acrValues.basic]);

/**
 * The `claims` parameter as the provider keeps it: only an essential `acr` for the ID token (what an app may insist
 * on: the provider's own login checks, `essential_acrs`/`essential_acr`, then send the request to the interaction,
 * which meets it, steps up or refuses). Any other claim is already decided by the scopes the parent granted, and a
 * request for one is dropped (5.5.1: an essential claim the provider does not return is not an error) rather than
 * asking for consent to single claims, which the site's consent screen does not show.
 */
export function keepOnlyEssentialAcr(ctx: KoaContextWithOIDC, claims: { id_token?: { acr?: AcrRequest | null } }) {
  const params = ctx.oidc.params as { claims?: string } | undefined;
  if (!params) return;
  const acr = claims.id_token?.acr;
  params.claims = acr && acr.essential === true ? JSON.stringify({ id_token: { acr } }) : undefined;
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
