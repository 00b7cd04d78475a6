// `npm run bench`: every benchmark against the built site (npm run build first), one table at the end.
// BENCH_ONLY=budgets,throughput,auth,lighthouse,workers,oidc,memory,cpu,jwt,costs,scale,botcheck picks some; BENCH_PORT (default 3300) and the ports after it are used.
import { machine, printTable } from "./lib.mjs";

const benchmarks = {
  budgets: () => import("./first-load-js.mjs"),
  throughput: () => import("./server-throughput.mjs"),
  auth: () => import("./auth-latency.mjs"),
  lighthouse: () => import("./lighthouse.mjs"),
  workers: () => import("./workers.mjs"),
  oidc: () => import("./oidc-endpoints.mjs"),
  memory: () => import("./memory.mjs"),
  cpu: () => import("./request-cpu.mjs"),
  jwt: () => import("./jwt-verify.mjs"),
  costs: () => import("./operation-costs.mjs"),
  scale: () => import("./scale.mjs"),
  botcheck: () => import("./bot-check.mjs"),
};
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());

const rows = [];
const started = Date.now();
const before = machine();
for (const [name, load] of Object.entries(benchmarks)) {
  if (only && !only.includes(name)) continue;
  console.error(`… ${name}`);
  rows.push(...(await (await load()).run()));
}
console.log(`Machine at the start: ${before}`);
console.log(`Machine at the end:   ${machine()}   (${Math.round((Date.now() - started) / 1000)} s)`);
printTable(rows);
process.exitCode = rows.every((r) => r.met) ? 0 : 1;
