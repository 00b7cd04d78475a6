// The metrics port (docs/operations.md): GET /metrics in the Prometheus text format, on METRICS_PORT (default 9464)
// bound to METRICS_HOST (default loopback), never on the site's port; with METRICS_TOKEN it asks for
// `Authorization: Bearer <token>`. Plain Node, so the cluster primary can serve it too. The workers' configuration
// (app/config/env.server.ts) validates the same variables and refuses a public host without a token.
import http from "node:http";
import { timingSafeEqual } from "node:crypto";

export function metricsPortSettings(env = process.env) {
  const port = env.METRICS_PORT === undefined || env.METRICS_PORT === "" ? 9464 : Number(env.METRICS_PORT);
  return { port, host: env.METRICS_HOST || "127.0.0.1", token: env.METRICS_TOKEN || undefined };
}

const sameToken = (given, expected) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Starts the metrics listener; `collect` answers { text, contentType }. Answers the server (or null when port 0). */
export function startMetricsPort({ port, host, token }, collect, log = () => {}) {
  if (!port) return null;
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    if (token && !sameToken(req.headers.authorization ?? "", `Bearer ${token}`)) {
      res.writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": "Bearer" }).end("unauthorized\n");
      return;
    }
    try {
      const { text, contentType } = await collect();
      res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(text);
    } catch (error) {
      log({ level: 50, msg: "metrics collection failed", err: String(error) });
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("metrics unavailable\n");
    }
  });
  // A taken port costs the metrics, never the site.
  server.on("error", (error) => log({ level: 50, msg: `metrics port ${host}:${port} unavailable: ${error.message}` }));
  server.listen(port, host, () => log({ level: 30, msg: `metrics on http://${host}:${server.address().port}/metrics` }));
  server.unref();
  return server;
}
