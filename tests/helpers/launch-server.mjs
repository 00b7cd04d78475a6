// The one way tests and benchmarks start the built site: `node server.mjs` with NODE_ENV=production, exactly as
// `npm start` runs it, on embedded defaults (a fresh SQLite file in a temp folder, the development mailbox, no
// Redis). Plain JavaScript so the benchmarks (.mjs, run by Node directly) and the TypeScript tests share it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Starts the built server and, unless `waitForHealth` is false, resolves once `/healthz` answers 200.
 * Rejects with what the server printed if it exits or stays unhealthy first.
 * @param {import("./launch-server.d.mts").LaunchOptions} [options]
 * @returns {Promise<import("./launch-server.d.mts").LaunchedServer>}
 */
export async function launchServer({ port = 3000, buildDir, env = {}, waitForHealth = true, timeoutMs = 30_000 } = {}) {
  const build = buildDir ?? process.env.BUILD_DIR ?? "build";
  if (!fs.existsSync(path.join(build, "server/index.js"))) {
    throw new Error(`No build in ${build}: run \`BUILD_DIR=${build} npm run build\` first.`);
  }
  const origin = `http://localhost:${port}`;
  if (waitForHealth && (await isHealthy(origin))) throw new Error(`Port ${port} is taken: something already answers on ${origin}.`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-server-"));
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      SITE_URL: origin,
      DATA_DIR: dataDir,
      BUILD_DIR: build,
      DATABASE_URL: "",
      REDIS_URL: "",
      // One process, as tests measure and signal it; a benchmark of workers passes its own count.
      WEB_CONCURRENCY: "1",
      // A busy test machine must not turn slow successes into 503s; the fault tests of the deadline set 5 s.
      REQUEST_DEADLINE_MS: "30000",
      // Several test servers run at once: no metrics port unless a test asks for one.
      METRICS_PORT: "0",
      // Tests of other things sign up and ask for mail through the API many times from one address; the bot
      // check's own tests (tests/e2e/bot-check.test.ts) turn it on (a public site cannot turn it off).
      BOT_CHECK: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const server = { origin, pid: child.pid, dataDir, exited, output: () => output, stop };
  if (!waitForHealth) return server;

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited early (code ${child.exitCode}):\n${output}`);
    }
    if (await isHealthy(origin)) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`The server did not become healthy on ${origin} within ${timeoutMs / 1000} s:\n${output}`);
}

/**
 * Resident memory of a process on this machine, in MB (from /proc).
 * @param {number} pid
 */
export function residentMemoryMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function isHealthy(origin) {
  try {
    const response = await fetch(`${origin}/healthz`);
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
