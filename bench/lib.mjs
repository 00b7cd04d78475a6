// Shared by the benchmarks: load generation, the result row shape and the one table `npm run bench` prints.
import os from "node:os";
import autocannon from "autocannon";

export const buildDir = process.env.BUILD_DIR || "build";
/** Every benchmark takes its ports from here up (BENCH_PORT, default 3300): site, nginx, Chromium… */
export const basePort = Number(process.env.BENCH_PORT ?? 3300);
export const seconds = Number(process.env.BENCH_SECONDS ?? 8);

/** autocannon against one URL: requests per second and latency percentiles in ms. Non-2xx/3xx answers fail. */
export async function load(url, { connections = 50, duration = seconds, headers = {}, expect = [200] } = {}) {
  const options = { url, connections, headers: { "accept-encoding": "gzip", ...headers } };
  // One unmeasured second first, for every server alike: the first target would otherwise pay the JIT's warm-up.
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  const bad = result.errors + result.timeouts + Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !expect.includes(Number(code))).reduce((sum, [, { count }]) => sum + count, 0);
  // A stray socket error in hundreds of thousands of requests (autocannon's own, at the end of a run) is noise.
  if (bad > result.requests.total / 10_000) throw new Error(`${url}: ${bad} failed or unexpected answers (${JSON.stringify(result.statusCodeStats)})`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * One line of the table: the figure, the reference measured in the same run (or a fixed one, said so), their
 * ratio and the target, with whether it is met.
 * @param {{ figure: string, value: number, unit: string, reference?: { label: string, value: number }, ratio?: number, target: string, met: boolean }} row
 */
export const row = (row) => row;

const fmt = (value, unit) => `${value >= 1000 ? Math.round(value).toLocaleString("en") : value.toFixed(1)} ${unit}`.trim();

export function printTable(rows) {
  const lines = rows.map((r) => [
    r.figure,
    fmt(r.value, r.unit),
    r.reference ? `${r.reference.label} ${fmt(r.reference.value, r.reference.unit ?? r.unit)}` : "",
    r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}×`,
    r.target,
    r.met ? "met" : "NOT MET",
  ]);
  const header = ["figure", "value", "reference (same run)", "ratio", "target", ""];
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const print = (cells) => console.log(`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(" | ")} |`);
  print(header);
  console.log(`| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`);
  lines.forEach(print);
}

/** The machine and its load, printed beside the figures (a shared machine makes them noisy). */
export function machine() {
  const [one, five] = os.loadavg();
  return `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, load average ${one.toFixed(1)} / ${five.toFixed(1)} (1 / 5 min)`;
}

/** Runs a benchmark module's `run()` alone when the file is executed directly. */
export async function runAlone(meta, run) {
  if (process.argv[1] !== new URL(meta.url).pathname) return;
  console.log(machine());
  printTable(await run());
}
