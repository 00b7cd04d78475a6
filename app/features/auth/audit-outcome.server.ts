import { isAPIError } from "better-auth/api";
import { OAUTH_POPUP_DATA_ELEMENT_ID } from "better-auth/plugins";

/** What an audited endpoint's answer says happened: a refusal carries its code. */
export type AuditOutcome = { outcome: "success" } | { outcome: "refused"; code: string; status?: number };

/**
 * Reads the outcome from an audited endpoint's answer (`ctx.context.returned`). A redirect is no refusal by itself:
 * a provider's callback redirects on success and on failure alike, and only an `error` in its address says which.
 * The pop-up's landing page carries the same error in its data block. Undefined: the answer is no outcome yet (the
 * way to a provider, for a sign-in or a link; its callback records how it ends).
 */
export async function auditOutcome(returned: unknown): Promise<AuditOutcome | undefined> {
  if (isAPIError(returned)) {
    if (returned.statusCode >= 300 && returned.statusCode < 400) return redirectOutcome(new Headers(returned.headers).get("location"));
    return { outcome: "refused", code: String(returned.body?.code ?? returned.statusCode), status: returned.statusCode };
  }
  if (returned instanceof Response) {
    if (returned.status >= 300 && returned.status < 400) return redirectOutcome(returned.headers.get("location"));
    if (returned.status >= 400) return { outcome: "refused", code: String(returned.status), status: returned.status };
    const popupError = await popupLandingError(returned);
    return popupError ? { outcome: "refused", code: popupError } : { outcome: "success" };
  }
  // `{ url, redirect: true }`: the way to the provider, not a sign-in yet.
  if (typeof returned === "object" && returned !== null && (returned as { redirect?: unknown }).redirect === true) return undefined;
  return { outcome: "success" };
}

function redirectOutcome(location: string | null): AuditOutcome {
  const error = location ? new URL(location, "http://site.invalid").searchParams.get("error") : null;
  return error ? { outcome: "refused", code: error } : { outcome: "success" };
}

const popupData = new RegExp(`<script type="application/json" id="${OAUTH_POPUP_DATA_ELEMENT_ID}">([^<]*)</script>`);

/** The error code the pop-up's landing page posts to its opener, if it posts one. */
async function popupLandingError(response: Response): Promise<string | undefined> {
  if (!(response.headers.get("content-type") ?? "").startsWith("text/html")) return undefined;
  const data = popupData.exec(await response.clone().text())?.[1];
  if (!data) return undefined;
  const code = (JSON.parse(data) as { error?: { code?: unknown } }).error?.code;
  return typeof code === "string" ? code : undefined;
}
