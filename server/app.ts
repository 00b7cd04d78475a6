import { Hono } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler } from "react-router";
import { getEnv } from "~/config/env.server";
import { closeDatabase, getDatabase, prepareDatabase } from "~/db/db.server";
import { canonicalRedirect } from "./redirects";
import { cacheControlFor, securityHeaders } from "./headers";
import { healthCheck } from "./health";
import { withClientIp } from "./client-ip";
import { compressDynamic } from "./compression";
import { authRoutes } from "./auth-routes";
import { getAuthService } from "~/features/auth/auth-service.server";
import { closeSharedRateLimitStore } from "~/services/rate-limit-store.server";
import { createStorage } from "~/features/storage/storage.server";
import { promoteEditors, setUserRole } from "~/features/auth/roles.server";
import { isRole } from "~/features/auth/roles";

/**
 * The thin host: redirects, headers, compression, static files (hashed assets and prerendered pages),
 * then React Router for every other request.
 */
export function createApp() {
  const env = getEnv();
  const app = new Hono();
  // Imported lazily so React Router's build stays a chunk of its own, which its prerenderer looks up.
  const handleRequest = createRequestHandler(
    () => import("virtual:react-router/server-build"),
    import.meta.env.PROD ? "production" : "development",
  );

  const https = env.SITE_URL.startsWith("https:");
  app.use(async (c, next) => {
    const target = canonicalRedirect(c.req.url, { https });
    if (target) return c.redirect(target, 301);
    return next();
  });
  app.use(securityHeaders({ https }));

  app.get("/healthz", async (c) => c.json(...(await healthCheck())));
  app.route("/", authRoutes(getAuthService()));
  // File storage speaking the Firebase Storage v0 protocol (docs/storage.md).
  app.route("/", createStorage({ env, database: getDatabase(), authService: getAuthService() }).routes);

  if (import.meta.env.PROD) {
    app.use(
      serveStatic({
        root: `${env.BUILD_DIR}/client`,
        precompressed: true,
        onFound: (path, c) => {
          c.header("Cache-Control", cacheControlFor(path));
        },
      }),
    );
  }

  // Dynamic answers are compressed on the fly; static files above are served precompressed.
  app.use(compressDynamic());
  app.all("*", (c) => handleRequest(withClientIp(c, env.TRUSTED_PROXIES)));

  app.onError((error, c) => {
    console.error(error);
    return c.text("伺服器發生錯誤，請稍後再試。", 500);
  });

  return app;
}

/** Validates the configuration and migrates the database; the start script awaits this before listening. */
export async function prepare() {
  const env = getEnv();
  await prepareDatabase();
  await promoteEditors(getDatabase(), env.EDITOR_EMAILS);
  return { port: env.PORT, host: env.HOST, dialect: getDatabase().dialect };
}

/** `npm run user:role -- <email> <role>` runs here, inside the server bundle, on the configured database. */
export async function changeUserRole(email: string, role: string): Promise<string> {
  if (!isRole(role)) throw new Error(`角色必須是 user 或 editor，收到「${role}」`);
  await prepareDatabase();
  try {
    const changed = await setUserRole(getDatabase(), email, role);
    if (changed === 0) throw new Error(`找不到 email 為 ${email} 的帳號`);
    return `${email} 的角色已設為 ${role}`;
  } finally {
    await closeDatabase();
  }
}

export async function shutdown() {
  await getAuthService().close();
  await closeSharedRateLimitStore();
  await closeDatabase();
}

export const app = createApp();
