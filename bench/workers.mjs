// Database pages three ways, in one run: a fresh render per request (PAGE_CACHE_SECONDS=0) with one process,
// the same with one worker per core (WEB_CONCURRENCY=auto), and the anonymous page cache (the default).
// The fresh single-process render is the reference of the other two.
//   npm run build && node bench/workers.mjs      (BUILD_DIR, BENCH_PORT, BENCH_SECONDS)
import os from "node:os";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, load, row, runAlone } from "./lib.mjs";

const pages = ["/wishing-well", "/dev-blog", "/blog?page=2"];
const cores = os.availableParallelism();

async function measure(env) {
  const site = await launchServer({ port: basePort + 10, buildDir, env });
  // Every worker up: the primary starts the others once the first listens.
  await new Promise((resolve) => setTimeout(resolve, env.WEB_CONCURRENCY === "1" ? 0 : 3_000));
  try {
    const results = {};
    for (const page of pages) results[page] = await load(`${site.origin}${page}`);
    return results;
  } finally {
    await site.stop();
  }
}

export async function run() {
  const fresh = await measure({ WEB_CONCURRENCY: "1", PAGE_CACHE_SECONDS: "0" });
  const workers = await measure({ WEB_CONCURRENCY: String(cores), PAGE_CACHE_SECONDS: "0" });
  const cached = await measure({ WEB_CONCURRENCY: "1" });
  const rows = [];
  for (const page of pages) {
    const reference = { label: "fresh, 1 process", value: fresh[page].rps };
    rows.push(row({
      figure: `${page} fresh, ${cores} workers, req/s (p99 ${workers[page].p99} ms; 1 process p99 ${fresh[page].p99} ms)`, value: workers[page].rps, unit: "",
      reference, ratio: workers[page].rps / fresh[page].rps, target: "(reported)", met: true,
    }));
    rows.push(row({
      figure: `${page} anonymous, cached, 1 process, req/s (p99 ${cached[page].p99} ms)`, value: cached[page].rps, unit: "",
      reference, ratio: cached[page].rps / fresh[page].rps, target: "≥ 800 req/s, p99 ≤ 100 ms", met: cached[page].rps >= 800 && cached[page].p99 <= 100,
    }));
  }
  return rows;
}

await runAlone(import.meta, run);
