import { Hono } from "hono";
import type { AuthService } from "~/features/auth/auth-service.server";
import { jsonError, toCatalogueError } from "~/features/auth/api-errors.server";
import { withoutSessionTokens } from "~/features/auth/session-token-scrub.server";
import { withClientIp } from "./client-ip";
import { devIdentityProviderRoutes } from "./dev-identity-provider";
import { noteRequestError } from "~/services/request-context.server";

/**
 * The sign-in layer's protocol surfaces (decision 902): Better Auth under /api/auth/*, and on a loopback site
 * without real providers the development identity provider (/dev-oidc/*).
 */
export function authRoutes(service: AuthService) {
  const routes = new Hono();
  const { env } = service;

  routes.on(["GET", "POST"], "/api/auth/*", async (c) => {
    // Better Auth reads the client address (rate limits, session records) from the header the host sets.
    const request = withClientIp(c, env.TRUSTED_PROXIES);
    try {
      const response = await withoutSessionTokens(await toCatalogueError(await service.auth.handler(request)));
      // The OAuth callback ends the pop-up on a page that posts to its opener. After the provider's pages the
      // pop-up must not switch browsing-context group, or window.opener is gone: no COOP on that page.
      if (!/\/api\/auth\/(oauth2\/)?callback\//.test(c.req.path)) return response;
      const headers = new Headers(response.headers);
      headers.set("Cross-Origin-Opener-Policy", "unsafe-none");
      return new Response(response.body, { status: response.status, headers });
    } catch (error) {
      // The request log writes it with its stack; an unreachable dependency turns this into 503 there.
      noteRequestError(error);
      return jsonError(500, "auth/internal-error");
    }
  });

  if (service.devIdentityProvider) {
    routes.route("/dev-oidc", devIdentityProviderRoutes(service));
  }
  return routes;
}
