// SQLite writers: one process against two workers (WEB_CONCURRENCY=1 / 2) on the same run, interleaved, for the
// writes parents make — sign-ups and photo uploads — at 20 at once. Prints p50/p99 and the load average before each
// round: on a shared machine the figures move with the neighbours', so compare only rounds of one run.
//   BUILD_DIR=build-test npm run build && node bench/sqlite-worker-count.mjs   (BUILD_DIR, BENCH_PORT, BENCH_ROUNDS)
import { randomUUID } from "node:crypto";
import os from "node:os";
import sharp from "sharp";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir } from "./lib.mjs";

const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const SIGN_UPS = 40;
const UPLOADS = 160;
const AT_ONCE = 20;
const limits = {
  RATE_LIMIT_SIGN_UP_PER_IP: "100000/60",
  RATE_LIMIT_AUTH_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: "100000/60",
};

function multipart(objectPath, bytes) {
  const boundary = `b${randomUUID().replace(/-/g, "")}`;
  const head = `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify({ name: objectPath, contentType: "image/png" })}\r\n--${boundary}\r\nContent-Type: image/png\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--`)]);
  return { body, headers: { "content-type": `multipart/related; boundary=${boundary}`, "x-goog-upload-protocol": "multipart" } };
}

/** Runs `count` calls of `task`, `AT_ONCE` at a time; returns each call's milliseconds and the failures. */
async function timed(count, task) {
  const times = [];
  let failures = 0;
  let next = 0;
  await Promise.all(Array.from({ length: AT_ONCE }, async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      if (!(await task(index))) failures += 1;
      times.push(performance.now() - started);
    }
  }));
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
  return { p50: at(0.5), p99: at(0.99), failures };
}

async function measure(workers, image) {
  const site = await launchServer({ port: basePort + 20, buildDir, env: { ...limits, WEB_CONCURRENCY: String(workers) } });
  await new Promise((resolve) => setTimeout(resolve, workers === 1 ? 0 : 3_000));
  const headers = { "content-type": "application/json", origin: site.origin };
  try {
    const parents = [];
    const signUps = await timed(SIGN_UPS, async () => {
      const response = await fetch(`${site.origin}/api/auth/sign-up/email`, {
        method: "POST", headers, body: JSON.stringify({ email: `bench-${randomUUID()}@example.tw`, password: "bench-river-kite-7", name: "家長" }),
      });
      if (response.status !== 200) return false;
      const { user } = await response.json();
      parents.push({ uid: user.id, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") });
      return true;
    });
    const uploads = await timed(UPLOADS, async (index) => {
      const parent = parents[index % parents.length];
      const objectPath = `users/${parent.uid}/bench-${index}.png`;
      const { body, headers: partHeaders } = multipart(objectPath, image);
      const response = await fetch(`${site.origin}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
        method: "POST", headers: { ...partHeaders, cookie: parent.cookie, origin: site.origin }, body,
      });
      await response.arrayBuffer();
      return response.status === 200;
    });
    return { signUps, uploads };
  } finally {
    await site.stop();
  }
}

const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#7ab" } }).png().toBuffer();
console.log(`cores ${os.availableParallelism()}; a shared machine: figures move with the neighbours' load`);
for (let round = 1; round <= rounds; round += 1) {
  for (const workers of [1, 2]) {
    const load = os.loadavg().map((value) => value.toFixed(1)).join(" ");
    const { signUps, uploads } = await measure(workers, image);
    console.log(
      `round ${round}, WEB_CONCURRENCY=${workers} (load ${load}): sign-up p50 ${signUps.p50} ms p99 ${signUps.p99} ms (${signUps.failures} failed); ` +
        `upload p50 ${uploads.p50} ms p99 ${uploads.p99} ms (${uploads.failures} failed)`,
    );
  }
}
