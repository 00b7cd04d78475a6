import { isIP } from "node:net";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createRequestHandler } from "react-router";
import { getEnv } from "~/config/env.server";
import { closeDatabase, getDatabase, prepareDatabase, setDatabaseReporting } from "~/db/db.server";
import { getLogger } from "~/services/logger.server";
import { noteRequestError, throwIfPastDeadline } from "~/services/request-context.server";
import { withClientIp } from "./client-ip";
import { closeSharedRateLimitStore, sharedRateLimitStore, sharedRedis } from "~/services/rate-limiter.server";
import { redisAnswers } from "~/services/redis.server";
import { broadcastOverRedis, listenToSiblingWorkers } from "~/services/public-content.server";
import { canonicalRedirect } from "./redirects";
import { baselineHeaders, securityHeaders, standaloneHeaders, staticFileHeaders, withCspNonce } from "./headers";
import { botCheckFrames } from "~/features/security/csp.server";
import { methodPolicy } from "./methods";
import { staticFiles } from "./static-files";
import { readiness } from "./health";
import { asSiteProtocol, hostValidation } from "./host-header";
import { devToolsOnlyForThisMachine } from "./dev-tools-guard";
import { answerLog, requestContext } from "./request-log";
import { memoryAnswers } from "./memory-answers";
import { requestDeadline } from "./request-deadline";
import { compressDynamic } from "./compression";
import { authRoutes } from "./auth-routes";
import { devProviderReadsBody } from "./dev-identity-provider";
import { compressStartupFiles, renderStartupPages, startupCspHashes } from "./startup-pages";
import { hoistedStyleHashes } from "./hoisted-styles";
import { prerenderedPaths } from "~/prerendered-paths";
import type { CspHashes } from "~/features/security/csp.server";
import { createPageCache } from "./page-cache";
import { filledPageAnswers, signedInPageAnswers, signedInPagesUpFront } from "./signed-in-pages";
import { signedInPages } from "~/features/shell/signed-in-pages.server";
import { endAllSessions, endSessionsOf, getAuthService, setUserRole, shareSessionLookup, signInScreenSettings, socialSignInOrigins, registerUserDataHandler } from "~/features/auth/index.server";
import { blobStoreFor, createStorage, importFirebaseStorage as importStorage, storageSummaryText, type StorageImportOptions } from "~/features/storage/storage.server";
import { wishUserData } from "~/features/wishes/wish-user-data.server";
import { wishBoardVariants } from "~/features/wishes/wish-board-variants.server";
import { appRedirectSources, createAppSignIn, providerReadsBody } from "~/features/app-sign-in/app-sign-in.server";
import { appOriginAccess } from "./app-origin";
import { postUserData } from "~/features/dev-blog/post-user-data.server";
import { startRecordRetention } from "~/features/security-record/record-retention.server";
import { collectProcessMetrics, countDependencyError, reportSiteInfo, watchOutbox } from "~/services/metrics.server";
import { buildVersion, startFacts, startSentence } from "./start-facts";
import { requestMetrics } from "./request-metrics";
import { outboxBacklog } from "./outbox-backlog";
export { metricsContentType, metricsText } from "~/services/metrics.server";
export { exportAuditRecord, verifyAuditRecord } from "./operator-commands";
import { familyUserData } from "~/features/family/family-user-data.server";
import { familyApi } from "~/features/family/family-api.server";
import { appDeletionApi } from "~/features/account/app-deletion.server";
import { onFamilyChange } from "~/features/family/family-events.server";
import { flushSecurityEvents, recordSecurityEvent } from "~/features/security-record/security-record.server";
import { importFirebaseUsers as importUsers, summaryText, type ImportOptions } from "~/features/firebase-import/import-users.server";

/** Renders the prerendered pages into the static files (production only); prepare() calls it. */
let renderPages: () => Promise<number> = async () => 0;

/** Every request body is capped; the sign-in layer's forms and JSON are small (analytics has its own 16 KB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The dev-blog editor posts a whole article: up to 100,000 characters, which a form sends as up to 9 bytes each
 * (three UTF-8 bytes, each percent-encoded). The deploy recipe's nginx allows more than this.
 */
export const MAX_POST_BODY_BYTES = 1024 * 1024;
const editorPaths = /^\/dev-blog\/(?:create|[A-Za-z0-9]{20}\/edit)$/;

/** How many signed-in parents' filled pages are kept (about 12 KB each, gzipped; PAGE_CACHE_MAX_MB bounds their bytes). */
const FILLED_PAGES_KEPT = 2048;

/** An answer from memory in front of Hono, or false: the request goes through Hono (server/memory-answers.ts). */
type MemoryAnswers = ReturnType<typeof memoryAnswers>;

/**
 * The thin host: request log and ids, Host check, redirects, headers, body limits, health, static files
 * (hashed assets and prerendered pages), then React Router for every other request. Beside it, the same files
 * answered straight from Node's request handler (`answerFromMemory`; none in development).
 */
export function createApp(): { app: Hono; answerFromMemory: MemoryAnswers } {
  const env = getEnv();
  const logger = getLogger();
  const onQueryError = (error: unknown) => {
    countDependencyError("database");
    noteRequestError(error);
  };
  setDatabaseReporting({ logger, onQueryError, beforeConnection: throwIfPastDeadline });
  // Features that keep rows per user follow account deletion and a guest's sign-in (file storage registers
  // its own handler in createStorage below).
  registerUserDataHandler(wishUserData);
  registerUserDataHandler(postUserData);
  // Every family change lands in the security record of the parent who made it (or whom it concerned).
  onFamilyChange(({ kind, familyId, actorId, subjectId }) =>
    recordSecurityEvent(getDatabase(), { event: "family-change", userId: actorId ?? subjectId, actorId, detail: { kind, familyId, subject: subjectId } }),
  );
  registerUserDataHandler(familyUserData({ productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, siteUrl: env.SITE_URL }));
  const app = new Hono();
  const handleRequest = reactRouterHandler();

  const https = env.SITE_URL.startsWith("https:");
  const hosts = { siteUrl: env.SITE_URL, allowedHostnames: env.allowedHostnames, isLoopbackSite: env.isLoopbackSite };
  let answerFromMemory: MemoryAnswers = () => false;
  app.use(baselineHeaders({ https }));
  app.use(requestContext(logger));
  app.use(requestMetrics());
  app.use(hostValidation(hosts));
  app.use(devToolsOnlyForThisMachine(env.TRUSTED_PROXIES));
  app.use(async (c, next) => {
    const target = canonicalRedirect(c.req.url, { https });
    // 301 turns a POST into a GET and drops its body; 308 makes the browser send the same form again (a form
    // posted to a slashed or www. address still reaches its action).
    const method = c.req.method;
    if (target) return c.redirect(target, method === "GET" || method === "HEAD" ? 301 : 308);
    return next();
  });
  // Filled at start-up with the hashes of the pages rendered then (renderPages below), before the first request.
  // With the stylesheets screens hoist on a client-side navigation (server/hoisted-styles.ts).
  const cspHashes: CspHashes = { pages: {}, styles: hoistedStyleHashes() };
  // The same pages, as signed-in parents see them: from a template per page once these are rendered.
  const signedInPaths = new Set<string>();
  const signedIn = signedInPages({ render: handleRequest, siteUrl: env.SITE_URL, paths: signedInPaths, variants: wishBoardVariants, variantSeconds: env.PAGE_CACHE_SECONDS, variantMaxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024 });
  const headerOptions = {
    https,
    cspHashes,
    analytics: Boolean(env.GA_MEASUREMENT_ID),
    // A form may lead off the site: a sign-in on its way to an app, a provider being linked to the account.
    formTargets: [...appRedirectSources(env), ...socialSignInOrigins(env)],
    frames: botCheckFrames(env.BOT_CHECK),
  };
  // A parent's filled pages, kept per page and parent (decision 714).
  const filledAnswers = filledPageAnswers({ headers: headerOptions, maxEntries: FILLED_PAGES_KEPT, maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024 });
  if (import.meta.env.PROD) {
    // Files of the build answer first, each with the whole header set made at start-up (decision 701).
    const files = staticFiles(`${env.BUILD_DIR}/client`, staticFileHeaders(headerOptions));
    app.use(files.middleware);
    // On SQLite a signed-in parent's prerendered page too (decision 712): its session read never waits on a network,
    // so it needs neither the chain's deadline nor its request context. PostgreSQL's goes through the chain.
    const signedInUpFront = getDatabase().dialect === "sqlite" ? signedInPagesUpFront(signedIn, filledAnswers, headerOptions) : undefined;
    if (env.MEMORY_ANSWERS === "on") answerFromMemory = memoryAnswers({ files, hosts, logAnswer: answerLog(logger), signedInPages: signedInUpFront });
    // The pages the same for every visitor, rendered from this configuration before the server listens (decision 1030).
    renderPages = async () => {
      const paths = await prerenderedPaths();
      const rendered = await renderStartupPages(handleRequest, env.SITE_URL, paths);
      const hashes = startupCspHashes(rendered);
      Object.assign(cspHashes.pages, hashes.pages);
      cspHashes.styles.push(...hashes.styles.filter((style) => !cspHashes.styles.includes(style)));
      files.add(await compressStartupFiles(rendered));
      for (const path of paths) signedInPaths.add(path);
      return rendered.length;
    };
  }
  // After the files, which answer from memory at once: a deadline's timer and signal cost a file a tenth of its time.
  app.use(requestDeadline(env.REQUEST_DEADLINE_MS));
  app.use(securityHeaders(headerOptions));
  app.use(methodPolicy());
  const pageCache = createPageCache({
    ttlSeconds: env.PAGE_CACHE_SECONDS,
    maxEntries: env.PAGE_CACHE_MAX_ENTRIES,
    maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
    cspHashes: headerOptions.cspHashes,
    analytics: headerOptions.analytics,
    formTargets: headerOptions.formTargets,
    frames: headerOptions.frames,
  });
  app.use(pageCache.invalidateOnWrite);
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ code: "payload-too-large", message: "傳送的資料過大。" }, 413),
  });
  // File uploads (/v0/b/*) carry their own size limit (docs/storage.md), the OpenID providers their own
  // (providerReadsBody, devProviderReadsBody). A request without a body skips the check, which would otherwise build a whole web
  // Request to look for one.
  const hasBody = (c: Context) => c.req.header("content-length") !== undefined || c.req.header("transfer-encoding") !== undefined;
  const limitPostBody = bodyLimit({
    maxSize: MAX_POST_BODY_BYTES,
    onError: (c) => c.json({ code: "payload-too-large", message: "傳送的資料過大。" }, 413),
  });
  // The profile photo form of /account posts a whole image: the storage limit, plus room for the form around it.
  const limitPhotoBody = bodyLimit({
    maxSize: env.STORAGE_MAX_UPLOAD_BYTES + MAX_BODY_BYTES,
    onError: (c) => c.redirect(`/account?${new URLSearchParams({ "photo-error": "圖片檔案太大，請選擇較小的圖片" })}`, 303),
  });
  app.use((c, next) => {
    if (c.req.path.startsWith("/v0/") || !hasBody(c) || providerReadsBody(c.req.path) || devProviderReadsBody(c.req.path)) return next();
    if (c.req.path === "/account/photo") return limitPhotoBody(c, next);
    return editorPaths.test(c.req.path) ? limitPostBody(c, next) : limitBody(c, next);
  });

  app.get("/healthz", (c) => c.json({ ok: true }));
  // The site as the app's OpenID provider (docs/app-integration.md): discovery and /oidc/*.
  const appSignIn = createAppSignIn({ authService: getAuthService() });
  // File storage speaking the Firebase Storage v0 protocol (docs/storage.md); its disk guard reports DATA_DIR's disk.
  // It also takes the app's access tokens.
  const storage = createStorage({ env, database: getDatabase(), authService: getAuthService(), appTokenUser: appSignIn.accessTokenUser });
  app.get("/readyz", async (c) => c.json(...(await readiness(getDatabase(), sharedRedis(), storage.disk.check))));
  app.route("/", authRoutes(getAuthService()));
  app.route("/", appSignIn.routes);
  app.route("/", familyApi({ db: getDatabase().db, appTokenUser: appSignIn.accessTokenAccount }));
  // The app starts a parent's deletion with its access token (docs/app-integration.md).
  app.route("/", appDeletionApi({ db: getDatabase().db, siteUrl: env.SITE_URL, appTokenAccount: appSignIn.accessTokenAccount }));
  // The app's origin may read downloads (CORS and CORP), nothing else of storage.
  app.use("/v0/b/*", appOriginAccess({ siteUrl: env.SITE_URL, appUrl: env.APP_URL }));
  app.route("/", storage.routes);

  // Dynamic answers are compressed on the fly; static files above are served precompressed.
  app.use(compressDynamic());
  app.use(signedInPageAnswers(signedIn, filledAnswers));
  app.use(pageCache.middleware);
  // The signed-in pages' layer may have looked the session up already (a cookie without a session, a user no template fits).
  app.all("*", (c) => handleRequest(shareSessionLookup(c.req.raw, asSiteProtocol(withCspNonce(c, withClientIp(c, env.TRUSTED_PROXIES)), https))));

  app.onError((error, c) => {
    // The request log writes it (with its stack) once the answer is known; a dependency outage becomes 503 there.
    noteRequestError(error);
    return c.text("伺服器發生錯誤，請稍後再試。", 500);
  });

  return { app, answerFromMemory };
}

/**
 * The answer to a request the HTTP adapter cannot even turn into a web Request (a Host header the URL parser
 * refuses), or to an app that failed outside its own error handling: JSON with a stable code, the security
 * headers every answer carries, and one JSON log line.
 */
export function answerOutsideTheApp(error: unknown): Response {
  const unparsable = error instanceof Error && error.name === "RequestError";
  const status = unparsable ? 400 : 500;
  if (unparsable) getLogger().info({ status, reason: error.message }, "request refused before routing");
  else getLogger().error({ status, err: error }, "request failed outside the app");
  const body = unparsable ? { code: "bad-request", message: "請求的格式不正確。" } : { code: "internal-error", message: "伺服器發生錯誤，請稍後再試。" };
  const headers = { ...standaloneHeaders({ https: getEnv().SITE_URL.startsWith("https:") }), "Content-Type": "application/json; charset=utf-8" };
  return new Response(JSON.stringify(body), { status, headers });
}

/** A start-up failure, said in one sentence that names the variable to check (never its value: it holds a password). */
export class StartupError extends Error {
  override name = "StartupError";
}

/** How long start-up waits for Redis; the database has its own connect timeout. */
const STARTUP_REDIS_TIMEOUT_MS = 10_000;

let stopBroadcast = () => {};
let stopRetention = () => {};

/** Validates the configuration, migrates the database and checks Redis; the start script awaits this before listening. */
export async function prepare() {
  const env = getEnv();
  const siteHost = new URL(env.SITE_URL).hostname;
  if (isIP(siteHost.replace(/^\[|\]$/g, ""))) {
    getLogger().warn({ event: "passkeys-off-on-ip-address" }, `SITE_URL 是 IP 位址（${siteHost}），瀏覽器不接受 IP 位址作為密碼金鑰的網域：登入頁不會提供密碼金鑰。請改用網域名稱（或本機的 localhost）。`);
  }
  try {
    await prepareDatabase();
  } catch (error) {
    const variable = env.DATABASE_URL ? "DATABASE_URL" : "DATA_DIR";
    throw new StartupError(`無法連線或準備資料庫，請檢查 ${variable}：${(error as Error).message}`, { cause: error });
  }
  await getAuthService().promoteEditors();
  collectProcessMetrics();
  if (env.WEB_CONCURRENCY_WORKER <= 1) {
    stopRetention = startRecordRetention(getDatabase(), env.AUDIT_RETENTION_DAYS, getLogger());
    watchOutbox(() => outboxBacklog(getDatabase().db));
  }
  sharedRateLimitStore();
  const redis = sharedRedis();
  if (redis) {
    await redisAnswers(redis, STARTUP_REDIS_TIMEOUT_MS).catch((error: unknown) => {
      throw new StartupError(`無法連線到 Redis，請檢查 REDIS_URL：${(error as Error).message}`, { cause: error });
    });
    redis.on("error", () => countDependencyError("redis"));
    const subscriber = redis.duplicate();
    subscriber.on("error", () => {});
    void subscriber.connect().catch(() => {});
    stopBroadcast = broadcastOverRedis(redis, subscriber, `${env.REDIS_KEY_PREFIX}public-content-changed`);
  }
  if (env.WEB_CONCURRENCY_WORKER) listenToSiblingWorkers();
  return { port: env.PORT, host: env.HOST, dialect: getDatabase().dialect, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS };
}

/**
 * Once the server listens: renders the pages that are the same for every visitor from this configuration (until
 * then they are rendered per request, as any page), then writes the start line with what this start runs with.
 * After listening, because a loopback site's sign-in layer looks up the development identity provider, which this
 * very server answers (decision 1030).
 */
export async function finishStart() {
  const env = getEnv();
  const started = performance.now();
  let pages = 0;
  try {
    pages = await renderPages();
  } catch (error) {
    getLogger().error({ event: "pages-not-rendered", err: error }, `${(error as Error).message}：這些頁面改為每次請求時產生。`);
  }
  const facts = startFacts(env, signInScreenSettings().providers, import.meta.env.PROD ? buildVersion(env.BUILD_DIR) : "development");
  reportSiteInfo(facts);
  // One line an operator reads after a deployment: what runs, with what (no secret: ids and kinds only).
  if (env.WEB_CONCURRENCY_WORKER <= 1) {
    getLogger().info({ event: "start", ...facts, pagesRendered: pages, renderMs: Math.round(performance.now() - started) }, startSentence(facts));
  }
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

/**
 * `npm run import:firebase -- --users <file> …` runs here, inside the server bundle, on the configured database
 * (scripts/import-firebase.mjs reads the flags and draws the progress).
 */
export async function importFirebaseUsers(exportText: string, options: ImportOptions): Promise<string> {
  await prepareDatabase();
  try {
    const summary = await importUsers(getDatabase(), exportText, options);
    if (!summary.dryRun) await recordSecurityEvent(getDatabase(), {
      event: "firebase-import",
      outcome: "success",
      detail: { total: summary.total, imported: summary.imported, updated: summary.updated, unchanged: summary.unchanged, skipped: summary.skipped.length, dryRun: summary.dryRun },
    }).catch(() => {});
    return summaryText(summary);
  } finally {
    await closeDatabase();
  }
}

/**
 * `npm run import:firebase-storage -- --from <folder> --metadata <file>` runs here, on the configured database and
 * storage driver, into STORAGE_BUCKET (scripts/import-firebase-storage.mjs reads the flags and draws the progress).
 */
export async function importFirebaseStorage(options: Omit<StorageImportOptions, "bucket">): Promise<string> {
  const env = getEnv();
  await prepareDatabase();
  try {
    const summary = await importStorage(getDatabase(), blobStoreFor(env), { ...options, bucket: env.STORAGE_BUCKET });
    if (!summary.dryRun) await recordSecurityEvent(getDatabase(), {
      event: "firebase-storage-import",
      outcome: "success",
      detail: { total: summary.total, imported: summary.imported, updated: summary.updated, unchanged: summary.unchanged, skipped: summary.skipped.length, bytes: summary.bytes },
    }).catch(() => {});
    return storageSummaryText(summary);
  } finally {
    await closeDatabase();
  }
}

/** After the server stopped taking requests: delivers what the outbox holds, then closes the pools. */
export async function shutdown() {
  stopBroadcast();
  stopRetention();
  await getAuthService().close();
  await closeSharedRateLimitStore();
  // Security events still waiting for the database get one more try before the pools close.
  const unwritten = await flushSecurityEvents(2_000);
  if (unwritten) getLogger().error({ unwritten }, "security events not written at shutdown (each is in its own log line)");
  await closeDatabase();
}

export const { app, answerFromMemory } = createApp();

/**
 * React Router's request handler. Its build is imported lazily, so it stays a chunk of its own, which the
 * prerenderer looks up. Given the build as a function, React Router derives its route tables from it on every
 * request (so development picks up an edited route), about a third of a rendered page's CPU; in production the
 * build is loaded once, on the first request, and handed over as it is.
 */
function reactRouterHandler(): ReturnType<typeof createRequestHandler> {
  const loadBuild = () => import("virtual:react-router/server-build");
  if (!import.meta.env.PROD) return createRequestHandler(loadBuild, "development");
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  return async (request, context) => {
    // A failed import is tried again by the next request, as React Router itself would.
    handler ??= loadBuild().then(
      (build) => createRequestHandler(build, "production"),
      (error: unknown) => {
        handler = undefined;
        throw error;
      },
    );
    return (await handler)(request, context);
  };
}
