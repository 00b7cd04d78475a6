// Resident memory of the built site under hostile requests: RSS at the start, after a first round of 10,000
// malformed requests (the fault test's fuzzer, tests/helpers/hostile-requests.mjs) and after a second round of
// 10,000 more. Targets: the first round adds less than 150 MB (caches and the JIT fill up), the second less than
// 30 MB (nothing grows with the traffic itself).
//   npm run build && node bench/memory.mjs        (BUILD_DIR, BENCH_PORT)
import { execFileSync } from "node:child_process";
import { sendHostileRequests } from "../tests/helpers/hostile-requests.mjs";
import { authAddresses, exampleAddress } from "../tests/helpers/route-addresses.mjs";
import { launchServer, residentMemoryMb } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, row, runAlone } from "./lib.mjs";

const ROUND = 10_000;

/** RSS once the server has been idle for a moment (its last answers written, timers run). */
async function settledRssMb(pid) {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return residentMemoryMb(pid);
}

/**
 * An address for each route of the route map, as React Router reads it (the route map is TypeScript, which this
 * script cannot import; React Router's own command prints the config it makes of it).
 */
function routeAddresses() {
  const config = JSON.parse(execFileSync(process.execPath, ["node_modules/@react-router/dev/bin.js", "routes", "--json"], { encoding: "utf8" }));
  // The home page is the index route, which has no path of its own.
  const own = (entry) => (entry.index ? [""] : entry.path ? [entry.path] : []);
  const paths = (entries) => entries.flatMap((entry) => [...own(entry), ...paths(entry.children ?? [])]);
  return paths(config).map(exampleAddress);
}

export async function run() {
  // 127.0.0.1 is a trusted proxy, so each request's X-Forwarded-For is a client of its own (thousands of them).
  const site = await launchServer({ port: basePort + 30, buildDir, env: { TRUSTED_PROXIES: "127.0.0.1", LOG_LEVEL: "warn" } });
  try {
    const addresses = routeAddresses();
    const round = (seed) => sendHostileRequests({ routeAddresses: addresses, authAddresses: authAddresses(), port: new URL(site.origin).port, siteOrigin: site.origin, total: ROUND, seed });
    const start = await settledRssMb(site.pid);
    await round(20261126);
    const first = await settledRssMb(site.pid);
    await round(20261127);
    const second = await settledRssMb(site.pid);
    console.error(`RSS: ${start.toFixed(0)} MB at the start, ${first.toFixed(0)} MB after round 1, ${second.toFixed(0)} MB after round 2`);
    const grew = (which, before, after, label, limit) =>
      row({
        figure: `RSS growth, ${which} ${ROUND.toLocaleString("en")} hostile requests`,
        value: after - before,
        unit: "MB",
        reference: { label, value: before },
        target: `< ${limit} MB`,
        met: after - before < limit,
      });
    return [grew("first", start, first, "RSS at start", 150), grew("second", first, second, "RSS after round 1", 30)];
  } finally {
    await site.stop();
  }
}

await runAlone(import.meta, run);
