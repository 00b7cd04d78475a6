import { expect } from "vitest";
import type { AuthTestClient, AuthTestServer } from "./auth-server";

/** Sends a browser's request with its cookies and keeps the ones it is given (any path of the test server). */
export async function browse(client: AuthTestClient, url: string, init: { method?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": client.ip };
  if (client.cookies.size) headers.cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  if (init.form) headers["content-type"] = "application/x-www-form-urlencoded";
  const response = await fetch(url, { method: init.method ?? "GET", headers, body: init.form ? new URLSearchParams(init.form) : undefined, redirect: "manual" });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const [name = "", value = ""] = pair.split("=");
    if (/max-age=0/i.test(line) || value === "") client.cookies.delete(name.trim());
    else client.cookies.set(name.trim(), value);
  }
  return response;
}

/**
 * The whole round trip through the development identity provider from `startUrl` (the provider's address, or the
 * pop-up's start), signing in there as `email`. It ends where the site sends the browser: a path of the site, or
 * the pop-up's landing page (its answer). `code` replaces the authorization code the provider hands back.
 */
export async function devProviderRoundTrip(
  server: AuthTestServer,
  client: AuthTestClient,
  startUrl: string,
  email: string,
  options: { code?: string } = {},
): Promise<{ path: string } | { landing: Response }> {
  let response = await browse(client, startUrl);
  for (let hop = 0; hop < 10 && response.status >= 300 && response.status < 400; hop += 1) {
    const next = new URL(response.headers.get("location") ?? "", server.baseURL);
    if (next.pathname.startsWith("/dev-oidc/interaction/")) {
      await browse(client, next.href);
      response = await browse(client, next.href, { method: "POST", form: { email, action: "login" } });
    } else if (next.origin !== server.baseURL || (!next.pathname.startsWith("/dev-oidc") && !next.pathname.startsWith("/api/auth"))) {
      return { path: next.pathname };
    } else {
      if (options.code && next.pathname.startsWith("/api/auth/callback/")) next.searchParams.set("code", options.code);
      response = await browse(client, next.href);
    }
  }
  if (response.status === 200 && new URL(response.url).pathname.startsWith("/api/auth/callback/")) return { landing: response };
  throw new Error(`the provider round trip stopped at ${response.status} ${response.url} ${await response.text()}`);
}

/** Signs in through the development identity provider as `email`; the path the site sends the browser to. */
export async function signInWithDevProvider(server: AuthTestServer, client: AuthTestClient, email: string): Promise<string> {
  const started = await client.post<{ url: string }>("/sign-in/social", { provider: "dev", callbackURL: "/account" });
  expect(started.status).toBe(200);
  const end = await devProviderRoundTrip(server, client, started.body.url, email);
  if (!("path" in end)) throw new Error("the sign-in ended on a pop-up's landing page");
  return end.path;
}
