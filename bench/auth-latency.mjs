// Sign-in layer latency against the built server on SQLite (PRODUCT.md §5, issue "closing note").
// Prints the median of 50 sign-ups and 50 sign-ins next to one argon2id hash measured in this run, then the
// throughput of a prerendered page alone and while sign-ins run concurrently.
//
//   npm run build && node bench/auth-latency.mjs        (BUILD_DIR / BENCH_PORT to override)
//
// The server trusts 127.0.0.1 as a proxy here so each simulated visitor brings its own X-Forwarded-For:
// the rate limits stay on and behave as they would for many families, not one.
import { performance } from "node:perf_hooks";
import { hash } from "@node-rs/argon2";
import autocannon from "autocannon";
import { launchServer } from "../tests/helpers/launch-server.mjs";

const port = Number(process.env.BENCH_PORT ?? 3201);
const buildDir = process.env.BUILD_DIR ?? "build";
const origin = `http://localhost:${port}`;
const samples = 50;
const password = "bench-password-1";

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${value.toFixed(1)} ms`;

let visitor = 0;
async function post(pathname, body) {
  visitor += 1;
  const response = await fetch(`${origin}/api/auth${pathname}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin,
      "x-forwarded-for": `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function timed(action) {
  const started = performance.now();
  const status = await action();
  if (status !== 200) throw new Error(`unexpected status ${status}`);
  return performance.now() - started;
}

async function verify(email) {
  const mails = await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
  const link = mails.flatMap((mail) => mail.links).find((candidate) => candidate.includes("/verify-email"));
  if (!link) throw new Error(`no verification mail for ${email}`);
  const token = new URL(link).searchParams.get("token");
  const response = await fetch(`${origin}/api/auth/verify-email?token=${encodeURIComponent(token)}`);
  await response.arrayBuffer();
}

const hashOptions = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };
async function timeOneHash(index) {
  const started = performance.now();
  await hash(`password-${index}`, hashOptions);
  return performance.now() - started;
}

const pageThroughput = (duration) =>
  autocannon({ url: `${origin}/`, connections: 50, duration }).then((result) => result.requests.average);

const server = await launchServer({ port, buildDir, env: { TRUSTED_PROXIES: "127.0.0.1" } });
try {
  const run = Date.now().toString(36);
  const accounts = Array.from({ length: samples * 2 }, (_, index) => `bench-${run}-${index}@example.tw`);

  // Warm up the server's code paths (one sign-up and sign-in) before measuring.
  await post("/sign-up/email", { email: `warm-${run}@example.tw`, password, name: "warm" });

  // Hashes are timed between the requests, so both see the same load on a shared machine.
  const hashes = [];
  const signUps = [];
  for (const email of accounts.slice(0, samples)) {
    hashes.push(await timeOneHash(hashes.length));
    signUps.push(await timed(() => post("/sign-up/email", { email, password, name: "bench" })));
  }
  for (const email of accounts.slice(samples)) await post("/sign-up/email", { email, password, name: "bench" });
  for (const email of accounts) await verify(email);

  const signIns = [];
  for (const email of accounts.slice(0, samples)) {
    hashes.push(await timeOneHash(hashes.length));
    signIns.push(await timed(() => post("/sign-in/email", { email, password })));
  }
  const hashTime = median(hashes);

  const alone = await pageThroughput(5);
  let running = true;
  let signedIn = 0;
  const worker = async (offset) => {
    for (let index = offset; running; index += 2) {
      if ((await post("/sign-in/email", { email: accounts[index % accounts.length], password })) === 200) signedIn += 1;
    }
  };
  const workers = [worker(0), worker(1)];
  const underLoad = await pageThroughput(5);
  running = false;
  await Promise.all(workers);

  console.log("Sign-in layer latency (SQLite, built server, sequential requests)");
  console.log(`  one argon2id hash (19 MiB, t=2, p=1), median of ${hashes.length}: ${ms(hashTime)}`);
  console.log(`  sign-up, median of ${samples}:  ${ms(median(signUps))}  (hash + ${ms(median(signUps) - hashTime)})`);
  console.log(`  sign-in, median of ${samples}:  ${ms(median(signIns))}  (hash + ${ms(median(signIns) - hashTime)})`);
  console.log("Prerendered / throughput (autocannon, 50 connections, 5 s)");
  console.log(`  alone:                     ${alone.toFixed(0)} req/s`);
  console.log(`  with 2 concurrent sign-in loops: ${underLoad.toFixed(0)} req/s (${signedIn} sign-ins meanwhile)`);
} finally {
  await server.stop();
}
