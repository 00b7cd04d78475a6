// CPU time per request of the built server, read from /proc: robust on a shared machine, where wall-clock figures
// swing with the neighbours' load. With several builds (BUILD_DIRS=build-a,build-b) the rounds interleave, so an
// A/B comparison sees the same minutes; each figure is the median over ROUNDS (default 3). REQUESTS picks some of
// the requests (static, healthz, session, signIn, page, board, signUp, refresh, userinfo; default all).
//   npm run build && node bench/request-cpu.mjs         (BUILD_DIR or BUILD_DIRS, BENCH_PORT, ROUNDS, SAMPLES, REQUESTS)
import fs from "node:fs";
import { URLSearchParams } from "node:url";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, median, row, runAlone } from "./lib.mjs";
import { benchClient, clientAuthentication, signInApp } from "./oidc-endpoints.mjs";

const builds = (process.env.BUILD_DIRS ?? buildDir).split(",");
const rounds = Number(process.env.ROUNDS ?? 3);
const samples = Number(process.env.SAMPLES ?? 200);
const password = "tide-lantern-47";
const tick = 1000 / 100; // ms per clock tick (USER_HZ is 100 on Linux)
// A phone's browser, as parents' requests name theirs: the signed-in pages list devices and activity by it.
const browserAgent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36";
const labels = { static: "GET / (prerendered, gzip)", healthz: "GET /healthz", session: "GET /api/auth/get-session (signed in)", signIn: "sign-in (argon2 off the main thread)",
  page: "GET /account/security (signed in, fresh render)", account: "GET /account (signed in, fresh render)",
  family: "GET /account/family (signed in, fresh render)", board: "GET /wishing-well (signed in, fresh render)", signUp: "sign-up (one hash, five writes)",
  refresh: "the app's token refresh (rotating)", userinfo: "the app's userinfo (GET /oidc/me)" };
const chosen = process.env.REQUESTS?.split(",").map((name) => name.trim()) ?? Object.keys(labels);

/** CPU ms of the whole process and of its main thread. */
function cpu(pid) {
  const read = (file) => {
    const fields = fs.readFileSync(file, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * tick;
  };
  return { process: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
}

async function perRequest(pid, count, action) {
  for (let index = 0; index < 20; index += 1) await action(index); // warm
  const before = cpu(pid);
  for (let index = 0; index < count; index += 1) await action(index);
  const after = cpu(pid);
  return { process: (after.process - before.process) / count, main: (after.main - before.main) / count };
}

async function measure(build, port) {
  const site = await launchServer({
    port,
    buildDir: build,
    env: {
      TRUSTED_PROXIES: "127.0.0.1",
      OIDC_CLIENTS: JSON.stringify([{ client_id: benchClient.id, client_name: "效能測試 App", redirect_uris: [benchClient.redirectUri], public: false, first_party: true }]),
      [`OIDC_CLIENT_SECRET_${benchClient.id.toUpperCase().replace(/[-.]/g, "_")}`]: benchClient.secret,
    },
  });
  const { origin, pid } = site;
  let visitor = 0;
  const send = async (pathname, { body, cookie } = {}) => {
    visitor += 1;
    const response = await fetch(`${origin}${pathname}`, {
      method: body ? "POST" : "GET",
      headers: {
        ...(body ? { "content-type": "application/json" } : {}),
        ...(cookie ? { cookie } : {}),
        "user-agent": browserAgent,
        origin,
        "x-forwarded-for": `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${pathname}: ${response.status}`);
    return response;
  };
  try {
    const run = Date.now().toString(36);
    const accounts = Array.from({ length: 20 }, (_, index) => `cpu-${run}-${index}@example.tw`);
    for (const email of accounts) await send("/api/auth/sign-up/email", { body: { email, password, name: "bench" } });
    for (const email of accounts) {
      const mails = await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
      const link = mails.flatMap((mail) => mail.links).find((candidate) => candidate.includes("/verify-email"));
      await (await fetch(`${origin}/api/auth/verify-email?token=${encodeURIComponent(new URL(link).searchParams.get("token"))}`)).arrayBuffer();
    }
    const signIn = (index) => send("/api/auth/sign-in/email", { body: { email: accounts[index % accounts.length], password } });
    const cookie = (await signIn(0)).headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    // The app's tokens through the real flow (bench/oidc-endpoints.mjs): one chain of rotating refresh tokens.
    const discovery = await (await fetch(`${origin}/.well-known/openid-configuration`)).json();
    const appTokens = chosen.includes("refresh") || chosen.includes("userinfo") ? await signInApp(origin, discovery, 0) : undefined;
    const credentials = clientAuthentication(benchClient);
    let refreshToken = appTokens?.refresh_token;
    const refresh = async () => {
      const answer = await fetch(discovery.token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...credentials.headers },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, ...credentials.form }),
      });
      if (answer.status !== 200) throw new Error(`refresh: ${answer.status} ${await answer.text()}`);
      refreshToken = (await answer.json()).refresh_token;
    };
    const userinfo = async () => {
      const answer = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${appTokens.access_token}` } });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`userinfo: ${answer.status}`);
    };
    const requests = {
      static: () => perRequest(pid, samples * 5, () => fetch(`${origin}/`, { headers: { "accept-encoding": "gzip" } }).then((answer) => answer.arrayBuffer())),
      healthz: () => perRequest(pid, samples * 5, () => send("/healthz")),
      session: () => perRequest(pid, samples, () => send("/api/auth/get-session", { cookie })),
      signIn: () => perRequest(pid, samples, signIn),
      page: () => perRequest(pid, samples, () => send("/account/security", { cookie })),
      account: () => perRequest(pid, samples, () => send("/account", { cookie })),
      family: () => perRequest(pid, samples, () => send("/account/family", { cookie })),
      board: () => perRequest(pid, samples, () => send("/wishing-well", { cookie })),
      signUp: () => perRequest(pid, samples / 2, (index) => send("/api/auth/sign-up/email", { body: { email: `cpu-up-${run}-${visitor}-${index}@example.tw`, password, name: "bench" } })),
      refresh: () => perRequest(pid, samples, refresh),
      userinfo: () => perRequest(pid, samples, userinfo),
    };
    const results = {};
    for (const key of chosen) results[key] = await requests[key]();
    return results;
  } finally {
    await site.stop();
  }
}

export async function run() {
  const results = new Map(builds.map((build) => [build, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, build] of builds.entries()) results.get(build).push(await measure(build, basePort + 40 + index));
  }
  const [reference] = builds;
  const rows = [];
  for (const key of chosen) {
    for (const thread of ["main", "process"]) {
      const value = (build) => median(results.get(build).map((result) => result[key][thread]));
      for (const build of builds) {
        rows.push(row({ figure: `${labels[key]}, ${thread === "main" ? "main thread" : "whole process"} (${build})`, value: value(build), unit: "ms CPU",
          ...(build === reference || builds.length === 1 ? {} : { reference: { label: reference, value: value(reference) }, ratio: value(build) / value(reference) }),
          target: "(reported)", met: true }));
      }
    }
  }
  return rows;
}

await runAlone(import.meta, run);
