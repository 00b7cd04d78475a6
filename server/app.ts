import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createRequestHandler } from "react-router";
import { getEnv } from "~/config/env.server";
import { closeDatabase, getDatabase, prepareDatabase, setDatabaseReporting } from "~/db/db.server";
import { getLogger } from "~/services/logger.server";
import { noteRequestError } from "~/services/request-context.server";
import { withClientIp } from "./client-ip";
import { closeSharedRateLimitStore, sharedRateLimitStore, sharedRedis } from "~/services/rate-limiter.server";
import { redisAnswers } from "~/services/redis.server";
import { canonicalRedirect } from "./redirects";
import { loadCspHashes, securityHeaders, staticFileHeaders, withCspNonce } from "./headers";
import { methodPolicy } from "./methods";
import { staticFiles } from "./static-files";
import { readiness } from "./health";
import { hostValidation } from "./host-header";
import { requestContext } from "./request-log";
import { compressDynamic } from "./compression";
import { authRoutes } from "./auth-routes";
import { endAllSessions, endSessionsOf, getAuthService, setUserRole } from "~/features/auth/auth-service.server";
import { createStorage } from "~/features/storage/storage.server";
import { registerUserDataHandler } from "~/features/auth/user-data-hooks.server";
import { wishUserData } from "~/features/wishes/wish-user-data.server";

/** Every request body is capped; the sign-in layer's forms and JSON are small (analytics has its own 16 KB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The thin host: request log and ids, Host check, redirects, headers, body limits, health, static files
 * (hashed assets and prerendered pages), then React Router for every other request.
 */
export function createApp() {
  const env = getEnv();
  const logger = getLogger();
  setDatabaseReporting({ logger, onQueryError: noteRequestError });
  // Features that keep rows per user follow account deletion and a guest's sign-in (file storage registers
  // its own handler in createStorage below).
  registerUserDataHandler(wishUserData);
  const app = new Hono();
  // Imported lazily so React Router's build stays a chunk of its own, which its prerenderer looks up.
  const handleRequest = createRequestHandler(
    () => import("virtual:react-router/server-build"),
    import.meta.env.PROD ? "production" : "development",
  );

  app.use(requestContext(logger));
  app.use(hostValidation({ siteUrl: env.SITE_URL, allowedHostnames: env.allowedHostnames, isLoopbackSite: env.isLoopbackSite }));
  const https = env.SITE_URL.startsWith("https:");
  app.use(async (c, next) => {
    const target = canonicalRedirect(c.req.url, { https });
    // 301 turns a POST into a GET and drops its body; 308 makes the browser send the same form again (a form
    // posted to a slashed or www. address still reaches its action).
    const method = c.req.method;
    if (target) return c.redirect(target, method === "GET" || method === "HEAD" ? 301 : 308);
    return next();
  });
  const headerOptions = { https, cspHashes: loadCspHashes(env.BUILD_DIR), analytics: Boolean(env.GA_MEASUREMENT_ID) };
  if (import.meta.env.PROD) {
    // Files of the build answer first, each with the whole header set made at start-up (decision 701).
    app.use(staticFiles(`${env.BUILD_DIR}/client`, staticFileHeaders(headerOptions)));
  }
  app.use(securityHeaders(headerOptions));
  app.use(methodPolicy());
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ code: "payload-too-large", message: "傳送的資料過大。" }, 413),
  });
  // File uploads (/v0/b/*) carry their own size limit (docs/storage.md). A request without a body skips the
  // check, which would otherwise build a whole web Request to look for one.
  const hasBody = (c: Context) => c.req.header("content-length") !== undefined || c.req.header("transfer-encoding") !== undefined;
  app.use((c, next) => (c.req.path.startsWith("/v0/") || !hasBody(c) ? next() : limitBody(c, next)));

  app.get("/healthz", (c) => c.json({ ok: true }));
  const disk = { directory: env.DATA_DIR, lowBytes: env.STORAGE_MIN_FREE_BYTES };
  app.get("/readyz", async (c) => c.json(...(await readiness(getDatabase(), sharedRedis(), disk))));
  app.route("/", authRoutes(getAuthService()));
  // File storage speaking the Firebase Storage v0 protocol (docs/storage.md).
  app.route("/", createStorage({ env, database: getDatabase(), authService: getAuthService() }).routes);

  // Dynamic answers are compressed on the fly; static files above are served precompressed.
  app.use(compressDynamic());
  app.all("*", (c) => handleRequest(withCspNonce(c, withClientIp(c, env.TRUSTED_PROXIES))));

  app.onError((error, c) => {
    // The request log writes it (with its stack) once the answer is known; a dependency outage becomes 503 there.
    noteRequestError(error);
    return c.text("伺服器發生錯誤，請稍後再試。", 500);
  });

  return app;
}

/** A start-up failure, said in one sentence that names the variable to check (never its value: it holds a password). */
export class StartupError extends Error {
  override name = "StartupError";
}

/** How long start-up waits for Redis; the database has its own connect timeout. */
const STARTUP_REDIS_TIMEOUT_MS = 10_000;

/** Validates the configuration, migrates the database and checks Redis; the start script awaits this before listening. */
export async function prepare() {
  const env = getEnv();
  try {
    await prepareDatabase();
  } catch (error) {
    const variable = env.DATABASE_URL ? "DATABASE_URL" : "DATA_DIR";
    throw new StartupError(`無法連線或準備資料庫，請檢查 ${variable}：${(error as Error).message}`, { cause: error });
  }
  await getAuthService().promoteEditors();
  sharedRateLimitStore();
  const redis = sharedRedis();
  if (redis) {
    await redisAnswers(redis, STARTUP_REDIS_TIMEOUT_MS).catch((error: unknown) => {
      throw new StartupError(`無法連線到 Redis，請檢查 REDIS_URL：${(error as Error).message}`, { cause: error });
    });
  }
  return { port: env.PORT, host: env.HOST, dialect: getDatabase().dialect, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS };
}

/** `npm run user:role -- <email> <role>` runs here, inside the server bundle, on the configured database. */
export async function changeUserRole(email: string, role: string): Promise<string> {
  await prepareDatabase();
  try {
    const changed = await setUserRole(getDatabase(), email, role);
    if (changed === 0) throw new Error(`找不到 email 為 ${email} 的帳號`);
    return `${email} 的角色已設為 ${role}`;
  } finally {
    await closeDatabase();
  }
}

/**
 * `npm run user:sign-out -- <email>` (every session of that account) or `-- --all` (every session of every
 * account) runs here, inside the server bundle, on the configured database.
 */
export async function signOutUsers(target: string): Promise<string> {
  await prepareDatabase();
  try {
    if (target === "--all") return `已登出所有帳號，共結束 ${await endAllSessions(getDatabase())} 個登入中的工作階段`;
    const ended = await endSessionsOf(getDatabase(), target);
    if (ended === null) throw new Error(`找不到 email 為 ${target} 的帳號`);
    return `已登出 ${target}，共結束 ${ended} 個登入中的工作階段`;
  } finally {
    await closeDatabase();
  }
}

/** After the server stopped taking requests: delivers what the outbox holds, then closes the pools. */
export async function shutdown() {
  await getAuthService().close();
  await closeSharedRateLimitStore();
  await closeDatabase();
}

export const app = createApp();
