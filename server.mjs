// Starts the site. Production (`npm start`): the built Hono app from build/server. Development
// (`npm run dev`): the same app loaded through Vite, with hot reload. A `.env` file beside this one is read
// first when present; variables already set in the environment win.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { getRequestListener, serve } from "@hono/node-server";

if (fs.existsSync(".env")) process.loadEnvFile(".env");
const production = process.env.NODE_ENV === "production";

async function loadProduction() {
  const entry = `./${process.env.BUILD_DIR || "build"}/server/index.js`;
  try {
    return await import(entry);
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("/server/index.js")) {
      console.error("找不到建置結果：請先執行 npm run build。");
      process.exit(1);
    }
    throw error;
  }
}

/** How long an idle keep-alive connection stays open; the recipe's nginx drops its own after 4 s, before this. */
const KEEP_ALIVE_MS = 5_000;

/**
 * SIGTERM/SIGINT: stop accepting connections, answer every request from now on with `Connection: close`, let
 * requests in flight finish, deliver the mail outbox, close the pools, exit 0 — all within SHUTDOWN_TIMEOUT_MS;
 * past it the remaining connections are cut and the process still exits.
 * Idle keep-alive connections are not cut at the signal: a client (or nginx) may be sending a request on one at
 * that moment and would see a reset. A request that arrives on one is answered (and the connection then
 * closed); the others close once idle for KEEP_ALIVE_MS, the time every client was told it may reuse them.
 */
function handleSignals(listener, server, shutdownTimeoutMs, state) {
  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    state.closing = true;
    const started = Date.now();
    const log = (message) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, signal, msg: message }));
    log("shutting down");
    const deadline = setTimeout(() => {
      log("shutdown deadline reached: closing the remaining connections");
      listener.closeAllConnections();
      process.exit(0);
    }, shutdownTimeoutMs);
    deadline.unref();
    // net.Server's close, not http.Server's: the latter also cuts idle keep-alive connections at once (Node ≥ 19).
    net.Server.prototype.close.call(listener, async () => {
      try {
        await server.shutdown();
      } finally {
        log(`stopped in ${Date.now() - started} ms`);
        process.exit(0);
      }
    });
    setTimeout(() => listener.closeIdleConnections(), KEEP_ALIVE_MS).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function start() {
  if (production) {
    const server = await loadProduction();
    const { port, host, dialect, shutdownTimeoutMs } = await server.prepare();
    const state = { closing: false };
    const fetch = async (request, bindings) => {
      const response = await server.app.fetch(request, bindings);
      if (!state.closing) return response;
      const headers = new Headers(response.headers);
      headers.set("connection", "close");
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    };
    const listener = serve({ fetch, port, hostname: host }, (info) => {
      // PORT=0 picks a free port; the line names the one taken.
      console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, port: info.port, msg: `網站已啟動：http://localhost:${info.port}（資料庫：${dialect}）` }));
    });
    listener.keepAliveTimeout = KEEP_ALIVE_MS;
    handleSignals(listener, server, shutdownTimeoutMs, state);
    return;
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const load = () => vite.ssrLoadModule("./server/app.ts");
  const { port, host } = await (await load()).prepare();
  http
    .createServer((req, res) =>
      vite.middlewares(req, res, async () => getRequestListener((await load()).app.fetch)(req, res)),
    )
    .listen(port, host, () => console.log(`開發伺服器：http://localhost:${port}`));
}

start().catch((error) => {
  // Configuration and start-up errors carry their own message naming the variable; nothing else is printed.
  console.error(["ConfigError", "StartupError"].includes(error?.name) ? error.message : error);
  process.exit(1);
});
