// Starts the site. Production (`npm start`): the built Hono app from build/server. Development
// (`npm run dev`): the same app loaded through Vite, with hot reload. A `.env` file beside this one is read
// first when present; variables already set in the environment win.
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import v8 from "node:v8";
import { getRequestListener } from "@hono/node-server";
import { metricsPortSettings, startMetricsPort } from "./server/metrics-port.mjs";
import { plainError, useJsonConsole } from "./server/json-console.mjs";

// After each full collection the heap may grow by half of what is still live. V8's own rule grows it up to
// fourfold while requests come fast, and keeps those pages afterwards: a burst of 10,000 hostile requests left
// 200 MB more resident for good, although what was live stayed under 100 MB (bench/memory.mjs). The price is
// more frequent collections under load. V8 reads this flag at every collection, so setting it here works.
v8.setFlagsFromString("--heap-growing-percent=50");

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

/** How long an idle keep-alive connection stays open; the recipe's nginx drops its own after 2 s, before this. */
const KEEP_ALIVE_MS = 5_000;

/** A lingering close (as nginx's lingering_timeout / lingering_time): how long the client may pause, and in all. */
const LINGER_IDLE_MS = 2_000;
const LINGER_MAX_MS = 10_000;

/**
 * A body refused unread (413): the answer goes out with `Connection: close`, and the connection is then closed
 * the way RFC 9112 section 9.6 asks. Closing the socket at once while the client is still sending makes the kernel answer
 * the next bytes with a reset, and the client's own kernel may throw the unread 413 away with it (EPIPE or
 * ECONNRESET where the answer should be; issue 38). So after the answer only our side is closed (FIN), and what
 * the client still sends is read and dropped until it stops for LINGER_IDLE_MS, closes its side, or LINGER_MAX_MS
 * pass. Node's server and the Hono adapter both end such a connection through `destroySoon`, replaced here for
 * this socket alone.
 */
function lingerAfterRefusedBody(socket) {
  if (!socket || socket.destroyed || socket.lingering) return;
  socket.lingering = true;
  let lingering = false;
  socket.destroySoon = function lingeringClose() {
    if (lingering) return;
    lingering = true;
    let idle;
    let total;
    const close = () => {
      clearTimeout(idle);
      clearTimeout(total);
      if (!socket.destroyed) socket.destroy();
    };
    const begin = () => {
      // The socket is ours now, as for an upgrade: the HTTP parser reads it no more (it stopped with the unread
      // body waiting), and what arrives is dropped here.
      const parser = socket.parser;
      if (parser?._consumed && typeof parser.unconsume === "function") {
        parser.unconsume();
        parser._consumed = false;
      }
      for (const event of ["data", "pause", "resume", "end"]) socket.removeAllListeners(event);
      idle = setTimeout(close, LINGER_IDLE_MS);
      total = setTimeout(close, LINGER_MAX_MS);
      socket.on("data", () => idle.refresh());
      socket.once("end", close);
      socket.once("close", close);
      socket.on("error", close);
      socket.resume();
    };
    // The answer first, then our FIN; the client reads the 413 and then the end of the stream.
    if (socket.writable) socket.end();
    if (socket.writableFinished) begin();
    else socket.once("finish", begin);
  };
}

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

/**
 * WEB_CONCURRENCY: how many processes serve the port. "auto" (the default, also when empty) is one per core on
 * PostgreSQL and one process on SQLite, where a worker waiting for the one write lock stops all its requests (decision 608).
 */
function workerCount() {
  // Empty or blank is unset, as app/config/env.server.ts reads it: the same meaning on SQLite and PostgreSQL.
  const raw = process.env.WEB_CONCURRENCY?.trim() || "auto";
  if (raw === "auto") return process.env.DATABASE_URL ? os.availableParallelism() : 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    plainError("設定錯誤，伺服器無法啟動：\n  WEB_CONCURRENCY: 必須是 auto 或 1 到 64 的整數");
    process.exit(1);
  }
  return count;
}

/**
 * The primary of WEB_CONCURRENCY workers sharing one port (decision 703). Worker 1 starts first (it migrates the
 * database and runs the mail outbox), the others once it listens. A worker that dies is started again; one that
 * fails before it ever listened while no other serves (a configuration error) stops the whole site with its exit
 * code, while others serve it is tried again. The primary passes "public content changed" between workers, and SIGTERM/SIGINT on to them, and exits when they have.
 */
function runPrimary(count) {
  let stopping = false;
  let othersForked = false;
  const serving = new Set();
  const log = (fields) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, ...fields }));
  const fork = (number) => {
    const worker = cluster.fork({ WEB_CONCURRENCY: String(count), WEB_CONCURRENCY_WORKER: String(number) });
    let listened = false;
    worker.once("listening", () => {
      listened = true;
      serving.add(worker);
      if (number === 1 && !othersForked) {
        othersForked = true;
        for (let next = 2; next <= count; next += 1) fork(next);
      }
    });
    worker.on("message", (message) => {
      if (message?.type !== "public-content-changed") return;
      for (const other of Object.values(cluster.workers ?? {})) if (other && other !== worker && other.isConnected()) other.send(message);
    });
    worker.once("exit", (code, signal) => {
      serving.delete(worker);
      if (stopping) return;
      // Nothing serves yet: a configuration the first worker refused. While others serve, a worker that cannot
      // start (Redis or the database away at that moment) is tried again instead of stopping the site.
      if (!listened && serving.size === 0) {
        stopAll("worker failed to start");
        process.exitCode = code || 1;
        return;
      }
      log({ level: 40, worker: number, code, signal, msg: listened ? "worker ended; starting it again" : "worker could not start; trying again" });
      setTimeout(() => fork(number), listened ? 1_000 : 5_000);
    });
  };
  const stopAll = (signal) => {
    if (stopping) return;
    stopping = true;
    log({ signal, msg: "stopping the workers" });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  cluster.on("exit", () => {
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  });
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));
  log({ workers: count, msg: `啟動 ${count} 個工作行程` });
  fork(1);
  // One metrics port for the whole site: prom-client asks every worker for its registry and sums them.
  import("prom-client").then(({ AggregatorRegistry }) => {
    const aggregator = new AggregatorRegistry();
    startMetricsPort(metricsPortSettings(), async () => ({ text: await aggregator.clusterMetrics(), contentType: aggregator.contentType }), (fields) => log(fields));
  });
}

async function start() {
  // Every line JSON from here on; a configuration that stops the start is still said in plain sentences (plainError).
  if (production) useJsonConsole();
  if (production && cluster.isPrimary) {
    const count = workerCount();
    if (count > 1) return runPrimary(count);
  }
  if (production) {
    const server = await loadProduction();
    const { port, host, dialect, shutdownTimeoutMs } = await server.prepare();
    const state = { closing: false };
    const fetch = async (request, bindings) => {
      // An answer written straight to Node's response (the app's OpenID provider) takes the header from here.
      if (state.closing) bindings.outgoing.setHeader("connection", "close");
      const response = await server.app.fetch(request, bindings);
      const refusedBody = response.status === 413;
      // No header is read otherwise: reading one turns a file's plain header object into a Headers object, which
      // the adapter writes in another order and case (server/headers.ts, finishedAnswer).
      if (!refusedBody && !state.closing) return response;
      // Such an answer is gone already: rebuilding its marker would make the adapter write a second one.
      if (response.headers.has("x-hono-already-sent")) return response;
      if (refusedBody) lingerAfterRefusedBody(bindings.incoming.socket);
      const headers = new Headers(response.headers);
      headers.set("connection", "close");
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    };
    // Requests the adapter cannot turn into a web Request (a Host the URL parser refuses) get the site's own
    // answer, headers included, instead of a bare 400.
    const throughHono = getRequestListener(fetch, { hostname: host, errorHandler: server.answerOutsideTheApp });
    // The build's files and prerendered pages straight from memory (server/memory-answers.ts), the rest through
    // Hono; while closing, everything goes through Hono, which says `Connection: close`.
    const listener = http.createServer((incoming, outgoing) => {
      const answered = !state.closing && server.answerFromMemory(incoming, outgoing);
      if (answered === true) return;
      // A signed-in parent's page may be a promise (a session read that waits): Hono takes it only if it was not
      // answered, or if writing the answer failed before anything went out (after that, the connection is ended).
      if (answered) {
        void answered.then(
          (done) => done || throughHono(incoming, outgoing),
          (error) => (outgoing.headersSent ? outgoing.destroy(error) : throughHono(incoming, outgoing)),
        );
      } else void throughHono(incoming, outgoing);
    });
    listener.listen(port, host, () => {
      // PORT=0 picks a free port; the line names the one taken.
      const taken = listener.address().port;
      console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, port: taken, msg: `網站已啟動：http://localhost:${taken}（資料庫：${dialect}）` }));
      // The pages the same for every visitor, rendered from this configuration, and the start line (server/app.ts).
      void server.finishStart();
    });
    listener.keepAliveTimeout = KEEP_ALIVE_MS;
    // A single process serves its own metrics; a cluster's primary serves them for every worker (runPrimary).
    if (cluster.isPrimary) {
      const log = (fields) => console.log(JSON.stringify({ time: Date.now(), pid: process.pid, ...fields }));
      startMetricsPort(metricsPortSettings(), async () => ({ text: await server.metricsText(), contentType: server.metricsContentType }), log);
    }
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
    .listen(port, host, async () => {
      console.log(`開發伺服器：http://localhost:${port}`);
      void (await load()).finishStart();
    });
}

start().catch((error) => {
  // Configuration and start-up errors carry their own message naming the variable; nothing else is printed.
  plainError(["ConfigError", "StartupError"].includes(error?.name) ? error.message : error);
  process.exit(1);
});
