// Throughput of the built site against a baseline measured in the same run: a bare node:http server
// sending the same prerendered file from memory. Prints req/s and p99 latency for each.
//   npm run build && node bench/server-throughput.mjs
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import autocannon from "autocannon";
import { launchServer } from "../tests/helpers/launch-server.mjs";

const buildDir = process.env.BUILD_DIR || "build";
const port = Number(process.env.BENCH_PORT ?? 3300);
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 50;

async function measure(url) {
  const result = await autocannon({ url, connections, duration, headers: { "accept-encoding": "br, gzip" } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { reqPerSec: Math.round(result.requests.average), p99ms: result.latency.p99 };
}

const page = fs.readFileSync(path.join(buildDir, "client/features/index.html.br"));
const baseline = http.createServer((_, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "br" });
  res.end(page);
});
await new Promise((resolve) => baseline.listen(port + 1, resolve));

const site = await launchServer({ port, buildDir });
try {
  const rows = {
    "baseline: node:http, same file from memory": await measure(`http://localhost:${port + 1}/`),
    "site: prerendered /features": await measure(`http://localhost:${port}/features`),
    "site: server-rendered /account-deletion": await measure(`http://localhost:${port}/account-deletion`),
  };
  console.table(rows);
} finally {
  await site.stop();
  baseline.close();
}
