import type { ServerEnv } from "~/config/env.server";

/**
 * Origins allowed to call the auth API and to appear in callback URLs: the site, the app, and every allowed
 * hostname on the site's scheme and port. Anything else (a foreign callbackURL, a foreign Origin) is refused.
 */
export function trustedOrigins(env: ServerEnv): string[] {
  const site = new URL(env.SITE_URL);
  const port = site.port ? `:${site.port}` : "";
  const fromHostnames = env.allowedHostnames.map((hostname) => `${site.protocol}//${hostname}${port}`);
  return [...new Set([env.SITE_URL, env.APP_URL, ...fromHostnames])];
}
