import type { AuthService } from "./auth-service.server";
import { authEndpoint } from "./auth-endpoints";
import { jsonError, toCatalogueError } from "./api-errors.server";
import { withoutSessionTokens } from "./session-token-scrub.server";
import { noteRequestError } from "~/services/request-context.server";

const basePath = "/api/auth";

/**
 * One request to the sign-in layer's API, from the host (`/api/auth/*`) or from a sign-in form's action: only a
 * path and method the endpoint table lists reaches Better Auth; its error answers become the catalogue's
 * `{ code, message }`; session tokens are taken out of the body; the pop-up's landing page gets no COOP.
 */
export async function serveAuthRequest(service: AuthService, request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(basePath.length);
  const row = authEndpoint(path);
  if (!row) return jsonError(404, "auth/not-found");
  if (!(row.methods as readonly string[]).includes(request.method)) {
    return jsonError(405, "auth/invalid-request", undefined, { allow: row.methods.join(", ") });
  }
  try {
    const response = await withoutSessionTokens(await toCatalogueError(await service.auth.handler(request), row));
    if (!row.popupLanding) return response;
    // After the provider's pages the pop-up must not switch browsing-context group, or window.opener is gone.
    const headers = new Headers(response.headers);
    headers.set("Cross-Origin-Opener-Policy", "unsafe-none");
    return new Response(response.body, { status: response.status, headers });
  } catch (error) {
    // The request log writes it with its stack; an unreachable dependency turns this into 503 there.
    noteRequestError(error);
    return jsonError(500, "auth/internal-error");
  }
}
