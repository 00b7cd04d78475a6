import { Hono } from "hono";
import type { AuthService } from "~/features/auth/auth-service.server";

/** Placeholder replaced by the OpenID provider below. */
export function devIdentityProviderRoutes(_service: AuthService) {
  return new Hono();
}
