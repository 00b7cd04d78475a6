import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { betterAuth } from "better-auth";
import { createAuthEndpoint, freshSessionMiddleware, sensitiveSessionMiddleware, sessionMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { parseEnv } from "~/config/env.server";
import { createAuthService, type AuthService, authEndpoint, authEndpoints, authPaths, type AuthEndpoint, serveAuthRequest } from "~/features/auth/index.server";
import { authOptions } from "~/features/auth/auth.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";

type LiveEndpoint = { path?: string; options?: { method?: string | string[]; use?: unknown[]; metadata?: { SERVER_ONLY?: boolean } } };

/** Every endpoint the auth instance answers over HTTP: the ones with a path that are not server-only. */
function liveEndpoints(service: AuthService) {
  return Object.entries(service.auth.api as unknown as Record<string, LiveEndpoint>)
    .filter(([, endpoint]) => endpoint.path && !endpoint.options?.metadata?.SERVER_ONLY)
    .map(([name, endpoint]) => ({ name, path: endpoint.path!, options: endpoint.options ?? {} }));
}

const neededSession = (use: unknown[] = []): AuthEndpoint["needs"] =>
  use.includes(freshSessionMiddleware)
    ? "fresh-session"
    : use.includes(sensitiveSessionMiddleware)
      ? "authoritative-session"
      : use.includes(sessionMiddleware)
        ? "session"
        : "nothing";

/** The files that spell the table's paths: auth-paths.ts (the shared endpoints) and each way in's unit (its own). */
const spellsPaths = (filePath: string) => filePath === path.join("app", "features", "auth", "auth-paths.ts") || /^app[/\\]features[/\\]auth[/\\]ways-in[/\\]([a-z-]+)[/\\]\1\.ts$/.test(filePath);
/** The pages a mailed link opens share their names with endpoints: spelled once, beside the other screens' paths. */
const pagesNamedLikeEndpoints = ['"/reset-password"', '"/verify-email"'].map((page) => `${path.join("app", "features", "auth", "auth-client.ts")} ${page}`);

/**
 * Every string (or piece of a template) in the source under app/ and server/, tests aside, that is a path of the
 * table, bare or under /api/auth, outside the files that spell them: `file:line "text"`.
 */
function pathLiteralsOutsideTable(): string[] {
  const isTablePath = (text: string) => {
    const [bare = ""] = text.replace(/^(https?:\/\/[^/]+)?\/api\/auth(?=\/)/, "").split(/[?#]/);
    return bare.startsWith("/") && authEndpoint(bare) !== undefined;
  };
  const found: string[] = [];
  for (const folder of ["app", "server"]) {
    for (const file of fs.readdirSync(folder, { recursive: true, encoding: "utf8" })) {
      const filePath = path.join(folder, file);
      if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file) || spellsPaths(filePath)) continue;
      const source = ts.createSourceFile(filePath, fs.readFileSync(filePath, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && isTablePath(node.text)) {
          const literal = `${filePath} ${JSON.stringify(node.text)}`;
          if (!pagesNamedLikeEndpoints.includes(literal)) found.push(`${literal} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return found;
}

// The endpoint table (app/features/auth/auth-endpoints.ts) against the live auth instance: a new plugin's
// endpoint without a row, or a row that says less than the endpoint does, fails here.
describe("the endpoint table", () => {
  let database: TestDatabase;
  let service: AuthService;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    // A loopback site without real providers: every plugin is on, the development identity provider included.
    service = createAuthService({ env: parseEnv({ SITE_URL: "http://localhost:4101", REDIS_URL: "" }), database: database.handle });
    expect(service.devIdentityProvider).toBeDefined();
  });
  afterAll(async () => {
    await service.close();
    await database.drop();
  });

  it("has a row for every live endpoint, with its methods and the session it needs", () => {
    const live = liveEndpoints(service);
    expect(live.length).toBeGreaterThan(30);
    const wrong = live.flatMap((endpoint) => {
      const row = authEndpoint(endpoint.path);
      if (row?.path !== endpoint.path) return [`${endpoint.name} (${endpoint.path}) has no row in auth-endpoints.ts`];
      const methods = [endpoint.options.method ?? []].flat().sort().join(",");
      const needs = neededSession(endpoint.options.use);
      return [
        ...([...row.methods].sort().join(",") === methods ? [] : [`${row.path}: methods ${methods}`]),
        ...(row.needs === needs ? [] : [`${row.path}: needs ${needs}`]),
      ];
    });
    expect(wrong).toEqual([]);
  });

  it("has no row without a live endpoint, and no path twice", () => {
    const livePaths = new Set(liveEndpoints(service).map((endpoint) => endpoint.path));
    expect(authEndpoints.map((row) => row.path).filter((row) => !livePaths.has(row))).toEqual([]);
    expect(new Set(authEndpoints.map((row) => row.path)).size).toBe(authEndpoints.length);
  });

  it("puts every sign-in under the rules: a limit per address, and the lockout wherever a password is tried", () => {
    for (const row of authEndpoints.filter((candidate) => candidate.session === "creates")) {
      // A callback carries the provider's one-time code, not something to guess; everything else is limited.
      if (!row.popupLanding) expect(row.perIp, row.path).toBeDefined();
    }
    const signIn = authEndpoint("/sign-in/email")!;
    expect(signIn).toMatchObject({ session: "creates", lockout: "typed-email", refuseUnverifiedEmail: true });
    expect(authEndpoint("/callback/google")).toMatchObject({ session: "creates", popupLanding: true });
  });

  // Callers take the table's path union (authRequest, callAuthApi), so a path without a row fails typecheck.
  it("is the only place a path is spelled: the rest of the code names its endpoints (authPaths)", () => {
    const { authBasePath, ...paths } = authPaths;
    expect(authBasePath).toBe("/api/auth");
    expect(Object.values(paths).sort()).toEqual(authEndpoints.map((row) => row.path).sort());
    expect(pathLiteralsOutsideTable()).toEqual([]);
  });

  it("answers 404 for a path without a row and 405 (with Allow) for a method the row does not list", async () => {
    const site = service.env.SITE_URL;
    const unknown = await serveAuthRequest(service, new Request(`${site}/api/auth/sign-in/unlisted`, { method: "POST" }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "auth/not-found" });
    const wrongMethod = await serveAuthRequest(service, new Request(`${site}/api/auth/sign-in/email`, { method: "PUT" }));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("refuses a foreign page's POST on every live endpoint, plugins' included, before the endpoint runs (login CSRF), and takes the site's own", async () => {
    const site = service.env.SITE_URL;
    const posts = liveEndpoints(service).filter((endpoint) => [endpoint.options.method ?? []].flat().includes("POST"));
    expect(posts.map((endpoint) => endpoint.path)).toEqual(expect.arrayContaining(["/phone-number/verify", "/email-link/sign-in", "/sign-in/anonymous", "/sign-in/email"]));
    // A concrete address for a pattern (`/callback/:id`).
    const address = (pattern: string) => `${site}/api/auth${pattern.replace(/:\w+/g, "dev")}`;
    const body = JSON.stringify({ email: "someone@example.tw", password: "correct horse battery", phoneNumber: "0912345678", code: "123456", token: "x" });
    const send = (pattern: string, headers: Record<string, string>) =>
      serveAuthRequest(service, new Request(address(pattern), { method: "POST", headers: { "content-type": "application/json", ...headers }, body }));
    const processed: string[] = [];
    for (const { path: pattern } of posts) {
      // A foreign Origin, an opaque one, and a browser that sends only Sec-Fetch-Site: all cookieless.
      const foreign: Record<string, string>[] = [{ origin: "https://attacker.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }];
      for (const headers of foreign) {
        const answer = await send(pattern, headers);
        const answered = (await answer.json().catch(() => null)) as { code?: string; message?: string } | null;
        // Refused by the site's rule (its message), not left to the endpoint or to Better Auth's own check.
        const refused = answer.status === 403 && answered?.code === "auth/unauthorized-domain" && /本網站/.test(answered.message ?? "");
        if (!refused) processed.push(`${pattern} ${JSON.stringify(headers)}: ${answer.status} ${answered?.code}`);
      }
    }
    expect(processed).toEqual([]);
    // The site's own pages (and a request no browser page made) reach the endpoint.
    const own: Record<string, string>[] = [{ origin: new URL(site).origin }, {}];
    for (const headers of own) {
      // A sign-in with an unknown address: the endpoint itself answers (wrong credentials), not the Origin rule.
      const signIn = await send("/sign-in/email", headers);
      expect([signIn.status, ((await signIn.json()) as { code?: string }).code], JSON.stringify(headers)).toEqual([401, "auth/invalid-credential"]);
    }
    for (const { path: pattern } of posts) {
      const answer = await send(pattern, { origin: new URL(site).origin });
      const answered = (await answer.json().catch(() => null)) as { code?: string } | null;
      expect(answered?.code, pattern).not.toBe("auth/unauthorized-domain");
    }
  });

  it("refuses a session set by an endpoint whose row says it sets none, and deletes that session", async () => {
    // A plugin that signs anyone in, registered without a row (as a forgotten new sign-in method would be).
    const rogue = {
      id: "rogue-sign-in",
      endpoints: {
        rogue: createAuthEndpoint("/rogue/sign-in", { method: "POST" }, async (ctx) => {
          const user = await ctx.context.internalAdapter.createUser({ email: `rogue-${Date.now()}@example.tw`, name: "x", emailVerified: true }, { method: "rogue" });
          const session = await ctx.context.internalAdapter.createSession(user.id, false);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ ok: true });
        }),
      },
    };
    const options = authOptions({ env: service.env, database: database.handle, rateLimitStore: service.rateLimitStore });
    const auth = betterAuth({ ...options, plugins: [...options.plugins, rogue] });
    const answer = await auth.handler(
      new Request(`${service.env.SITE_URL}/api/auth/rogue/sign-in`, { method: "POST", headers: { origin: service.env.SITE_URL, "content-type": "application/json" }, body: "{}" }),
    );
    expect(answer.status).toBe(500);
    expect(answer.headers.getSetCookie()).toEqual([]);
    const sessions = await database.handle.db.selectFrom("session").select("id").execute();
    expect(sessions).toEqual([]);
  });
});
