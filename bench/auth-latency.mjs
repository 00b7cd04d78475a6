// The sign-in layer against the built server on SQLite (PRODUCT §5), each figure beside a reference measured in
// this run: one argon2id hash (timed between the requests, so both see the same load on a shared machine).
//   npm run build && node bench/auth-latency.mjs        (BUILD_DIR, BENCH_PORT)
//
// The server trusts 127.0.0.1 as a proxy here so each simulated visitor brings its own X-Forwarded-For: the rate
// limits stay on and behave as they would for many families, not one.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { hash } from "@node-rs/argon2";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, load, median, row, runAlone } from "./lib.mjs";

const samples = 50;
// Shares no word with the accounts' emails (the context-word rule refuses such passwords).
const password = "tide-lantern-47";
const hashOptions = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

async function timeOneHash(index) {
  const started = performance.now();
  await hash(`password-${index}`, hashOptions);
  return performance.now() - started;
}

export async function run() {
  const site = await launchServer({ port: basePort + 20, buildDir, env: { TRUSTED_PROXIES: "127.0.0.1" } });
  const origin = site.origin;
  let visitor = 0;
  const post = async (pathname, body) => {
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
  };
  const timed = async (action) => {
    const started = performance.now();
    const status = await action();
    if (status !== 200) throw new Error(`unexpected status ${status}`);
    return performance.now() - started;
  };
  const verify = async (email) => {
    const mails = await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
    const link = mails.flatMap((mail) => mail.links).find((candidate) => candidate.includes("/verify-email"));
    if (!link) throw new Error(`no verification mail for ${email}`);
    await (await fetch(`${origin}/api/auth/verify-email?token=${encodeURIComponent(new URL(link).searchParams.get("token"))}`)).arrayBuffer();
  };
  /** Runs `count` actions with `inFlight` at a time; answers per second. */
  const concurrently = async (count, inFlight, action) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < count) await action(next++);
    }));
    return count / ((performance.now() - started) / 1000);
  };

  try {
    const run = Date.now().toString(36);
    const accounts = Array.from({ length: samples * 2 }, (_, index) => `bench-${run}-${index}@example.tw`);
    await post("/sign-up/email", { email: `warm-${run}@example.tw`, password, name: "warm" });

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
    const hashMs = median(hashes);

    const cores = os.cpus().length;
    const signInRate = await concurrently(320, 16, (index) => timed(() => post("/sign-in/email", { email: accounts[index % accounts.length], password })));
    const signUpRate = await concurrently(500, 50, (index) => timed(() => post("/sign-up/email", { email: `load-${run}-${index}@example.tw`, password, name: "bench" })));

    const idle = await load(`${origin}/features`, { connections: 10, duration: 5 });
    let storming = true;
    const storm = Promise.all(Array.from({ length: 16 }, async (_, worker) => {
      for (let index = worker; storming; index += 16) await post("/sign-in/email", { email: accounts[index % accounts.length], password });
    }));
    const during = await load(`${origin}/features`, { connections: 10, duration: 5 });
    storming = false;
    await storm;

    const signInP50 = median(signIns);
    const capacity = (0.8 * cores * 1000) / hashMs;
    return [
      row({ figure: `sign-in p50, sequential (${samples})`, value: signInP50, unit: "ms", reference: { label: "one hash", value: hashMs },
        ratio: signInP50 / hashMs, target: "≤ hash + 5 ms", met: signInP50 <= hashMs + 5 }),
      row({ figure: `sign-up p50, sequential (${samples})`, value: median(signUps), unit: "ms", reference: { label: "one hash", value: hashMs },
        ratio: median(signUps) / hashMs, target: "(reported)", met: true }),
      row({ figure: "sign-ins/s, 16 concurrent", value: signInRate, unit: "", reference: { label: "0.8 × cores ÷ hash", value: capacity },
        ratio: signInRate / capacity, target: "≥ 1×", met: signInRate >= capacity }),
      row({ figure: `/features p99 during a 16-way sign-in storm`, value: during.p99, unit: "ms", reference: { label: "idle p99", value: idle.p99 },
        ratio: during.p99 / Math.max(idle.p99, 1), target: "≤ 2× idle", met: during.p99 <= 2 * Math.max(idle.p99, 1) }),
      row({ figure: "sign-ups/s, 50 in flight", value: signUpRate, unit: "", reference: { label: "cores ÷ hash", value: (cores * 1000) / hashMs },
        ratio: signUpRate / ((cores * 1000) / hashMs), target: "≥ 100/s", met: signUpRate >= 100 }),
    ];
  } finally {
    await site.stop();
  }
}

await runAlone(import.meta, run);
