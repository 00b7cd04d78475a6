import { Hono } from "hono";
import { type AuthService, serveAuthRequest } from "~/features/auth/index.server";
import { withClientIp } from "./client-ip";
import { devIdentityProviderRoutes } from "./dev-identity-provider";

/**
 * The sign-in layer's protocol surfaces (decision 902): Better Auth under /api/auth/* — which paths and methods
 * answer is the endpoint table's to say (`app/features/auth/auth-endpoints.ts`) — and on a loopback site without
 * real providers the development identity provider (/dev-oidc/*).
 */
export function authRoutes(service: AuthService) {
  const routes = new Hono();
  // Better Auth reads the client address (rate limits, session records) from the header the host sets.
  routes.all("/api/auth/*", (c) => serveAuthRequest(service, withClientIp(c, service.env.TRUSTED_PROXIES)));
  if (service.devIdentityProvider) {
    routes.route("/dev-oidc", devIdentityProviderRoutes(service));
  }
  return routes;
}
