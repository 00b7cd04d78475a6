// Shared by the benchmarks: load generation, the result row shape and the one table `npm run bench` prints.
import os from "node:os";
import { spawn } from "node:child_process";

export const buildDir = process.env.BUILD_DIR || "build";
/** Every benchmark takes its ports from here up (BENCH_PORT, default 3300): site, nginx, Chromium… */
export const basePort = Number(process.env.BENCH_PORT ?? 3300);
export const seconds = Number(process.env.BENCH_SECONDS ?? 8);

/**
 * wrk (Debian's package, written in C) against one URL: requests per second, latency percentiles in ms, and how
 * much of a core wrk itself used. wrk runs one thread, so the server under test keeps the other core of a 2-core
 * machine; `generatorBound` says wrk's thread was (nearly) saturated, so the figure is the generator's ceiling, not
 * the server's. autocannon (Node) saturated near 4,000–5,000 req/s here and made a 0.21× gap to nginx read as 0.93×.
 * Any answer outside 2xx/3xx or a socket error (a request unanswered after 10 s among them) beyond one in 10,000
 * fails the run. WRK_PATH picks another wrk.
 */
export async function load(url, { connections = 50, duration = seconds, headers = {}, threads = 1 } = {}) {
  const all = { "accept-encoding": "gzip", ...headers };
  // One unmeasured second first, for every server alike: the first target would otherwise pay the JIT's warm-up.
  await wrk(url, { connections, duration: 1, headers: all, threads });
  const result = await wrk(url, { connections, duration, headers: all, threads });
  if (result.bad > result.requests / 10_000) throw new Error(`${url}: ${result.bad} failed or unexpected answers of ${result.requests}\n${result.output}`);
  return { rps: result.rps, p50: result.p50, p99: result.p99, generatorCores: result.generatorCores, generatorBound: result.generatorCores >= 0.9 * threads };
}

const wrkPath = process.env.WRK_PATH ?? "wrk";

/** One wrk run, timed by the shell so that wrk's own CPU time (user + system) is known. */
function wrk(url, { connections, duration, headers, threads }) {
  const args = ["-t", String(threads), "-c", String(connections), "-d", `${duration}s`, "--timeout", "10s", "--latency", ...Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]), url];
  const quoted = [wrkPath, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `TIMEFORMAT='cpu %U %S %R'; time ${quoted}`], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let timing = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (timing += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code} (apt-get install -y wrk): ${output}${timing}`));
      const ms = (label) => {
        const match = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(output);
        if (!match) throw new Error(`no ${label}% latency in wrk's output: ${output}`);
        return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2]];
      };
      const number = (pattern) => Number(pattern.exec(output)?.[1] ?? 0);
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)?.slice(1).reduce((sum, n) => sum + Number(n), 0) ?? 0;
      const [, user, system, real] = /cpu ([\d.]+) ([\d.]+) ([\d.]+)/.exec(timing) ?? [];
      try {
        resolve({
          rps: number(/Requests\/sec:\s+([\d.]+)/),
          requests: number(/(\d+) requests in/),
          p50: ms("50"),
          p99: ms("99"),
          bad: number(/Non-2xx or 3xx responses: (\d+)/) + socketErrors,
          generatorCores: real ? (Number(user) + Number(system)) / Number(real) : 0,
          output,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** "7,512 req/s (p99 9.1 ms, wrk 0.62 core)" with "generator-bound" where wrk's thread, not the server, was the limit. */
export const describeLoad = (result) =>
  `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, wrk ${result.generatorCores.toFixed(2)} core${result.generatorBound ? ", GENERATOR-BOUND" : ""}`;

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
