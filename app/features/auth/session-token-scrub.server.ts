import { OAUTH_POPUP_DATA_ELEMENT_ID } from "better-auth/plugins";

/**
 * The session token lives in the HttpOnly cookie and nowhere else (ASVS 7.2.x): Better Auth also returns it in the
 * JSON of sign-in, sign-up and session answers, and its oauth-popup page posts it to the opener. This takes it out
 * of both, so no page script can ever read it.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A sign-in answer (`{ token, user }`) or a session record (`{ token, userId, expiresAt }`). */
const carriesSessionToken = (value: Record<string, Json>) => "user" in value || ("userId" in value && "expiresAt" in value);

export function scrubSessionTokens(value: Json): Json {
  if (Array.isArray(value)) return value.map(scrubSessionTokens);
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value)
    .filter(([key]) => !(key === "token" && carriesSessionToken(value)))
    .map(([key, child]) => [key, scrubSessionTokens(child)] as const);
  return Object.fromEntries(entries);
}

// Better Auth's oauth-popup completion page keeps its payload in this element.
const popupPayload = new RegExp(`(<script type="application/json" id="${OAUTH_POPUP_DATA_ELEMENT_ID}">)([\\s\\S]*?)(</script>)`);

export async function withoutSessionTokens(response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  const isJson = type.includes("json");
  if (!response.ok || (!isJson && !type.includes("text/html"))) return response;
  const text = await response.text();
  let body = text;
  if (isJson) {
    try {
      body = JSON.stringify(scrubSessionTokens(JSON.parse(text) as Json));
    } catch {
      // Not JSON after all: passed on as it came.
    }
  } else {
    // The page's fixed script posts `payload.token`; without it the opener learns only that sign-in finished
    // and reads the session through its own cookie.
    body = text.replace(popupPayload, (_, open: string, json: string, close: string) => {
      const payload = JSON.parse(json) as Record<string, Json>;
      delete payload.token;
      return `${open}${JSON.stringify(payload).replace(/</g, "\\u003c")}${close}`;
    });
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
