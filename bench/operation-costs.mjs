// What one operation costs the shared engines, on PostgreSQL + Redis as the deploy recipe runs the site: SQL
// statements (BEGIN/COMMIT included) and Redis commands and round trips per sign-in, session check, fresh page,
// userinfo and token refresh, counted inside the server (bench/count-calls.mjs), plus the server's CPU per
// operation. These counts, not this machine's cores, say how the site grows; docs/performance.md turns them into
// a sizing. Deterministic counts: a change shows as a different number, whatever the machine's load.
//   npm run build && node bench/operation-costs.mjs     (BUILD_DIR, BENCH_PORT, TEST_DATABASE_URL, TEST_REDIS_URL, SAMPLES)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { URLSearchParams } from "node:url";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, row, runAlone } from "./lib.mjs";
import { benchClient, clientAuthentication, signInApp } from "./oidc-endpoints.mjs";
import { freshScaleOut, redisUrl } from "./scale-out.mjs";

const samples = Number(process.env.SAMPLES ?? 40);
const password = "tide-lantern-47";
const tick = 10; // ms per clock tick

export async function run() {
  const { id, databaseUrl, redisPrefix, drop } = await freshScaleOut("costs");
  const countsFile = path.join(os.tmpdir(), `operation-costs-${id}.json`);
  const site = await launchServer({
    port: basePort + 50,
    buildDir,
    env: {
      DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisPrefix, TRUSTED_PROXIES: "127.0.0.1",
      NODE_OPTIONS: `--import ${path.resolve("bench/count-calls.mjs")}`, COUNT_CALLS_FILE: countsFile,
      OIDC_CLIENTS: JSON.stringify([{ client_id: benchClient.id, client_name: "效能測試 App", redirect_uris: [benchClient.redirectUri], public: false, first_party: true }]),
      [`OIDC_CLIENT_SECRET_${benchClient.id.toUpperCase().replace(/[-.]/g, "_")}`]: benchClient.secret,
    },
  });
  const counts = async () => {
    fs.rmSync(countsFile, { force: true });
    process.kill(site.pid, "SIGUSR2");
    for (let wait = 0; !fs.existsSync(countsFile) && wait < 100; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const stat = fs.readFileSync(`/proc/${site.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { ...JSON.parse(fs.readFileSync(countsFile, "utf8")), cpu: (Number(stat[11]) + Number(stat[12])) * tick };
  };
  const { origin } = site;
  let visitor = 0;
  const send = async (url, { body, cookie, headers = {} } = {}) => {
    visitor += 1;
    const answer = await fetch(url.startsWith("http") ? url : `${origin}${url}`, {
      method: body ? "POST" : "GET",
      headers: { ...(typeof body === "string" ? {} : body ? { "content-type": "application/json" } : {}), ...(cookie ? { cookie } : {}),
        // A browser's requests carry the site's Origin; an app's backend calls to the provider carry none.
        ...(url.startsWith("http") ? {} : { origin }),
        "x-forwarded-for": `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`, ...headers },
      body: typeof body === "string" || body instanceof URLSearchParams ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${text.slice(0, 200)}`);
    return { answer, text };
  };
  // What the server sends on its own meanwhile (the mail outbox's poll, rate-limit sweeps), per millisecond: taken
  // off each operation's counts in proportion to how long its batch took.
  let background = null;
  const measureBackground = async () => {
    const before = await counts();
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = await counts();
    const elapsed = Date.now() - started;
    background = Object.fromEntries(Object.keys(after).map((key) => [key, key === "cpu" || key === "names" ? 0 : (after[key] - before[key]) / elapsed]));
  };
  /** Counts per operation over `samples` sequential operations (after two unmeasured ones). */
  const perOperation = async (action) => {
    await action(-2);
    await action(-1);
    const before = await counts();
    const started = Date.now();
    for (let index = 0; index < samples; index += 1) await action(index);
    const elapsed = Date.now() - started;
    const after = await counts();
    if (process.env.COSTS_DETAIL) {
      const names = Object.entries(after.names).map(([name, count]) => [name, (count - (before.names[name] ?? 0)) / samples]).filter(([, count]) => count > 0);
      console.error(JSON.stringify(Object.fromEntries(names), null, 1));
    }
    const per = (key) => Math.max(0, (after[key] - before[key] - background[key] * elapsed) / samples);
    return {
      statements: per("statements"), transactions: per("transactions"), redisCommands: per("redisCommands"),
      redisRoundTrips: per("redisRoundTrips"), cpu: per("cpu"),
    };
  };
  try {
    const emails = Array.from({ length: 10 }, (_, index) => `costs-${id}-${index}@example.tw`);
    for (const email of emails) await send("/api/auth/sign-up/email", { body: { email, password, name: "bench" } });
    for (const email of emails) {
      const mails = await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
      const link = mails.flatMap((mail) => mail.links).find((candidate) => candidate.includes("/verify-email"));
      await (await fetch(`${origin}/api/auth/verify-email?token=${encodeURIComponent(new URL(link).searchParams.get("token"))}`)).arrayBuffer();
    }
    const signIn = (index) => send("/api/auth/sign-in/email", { body: { email: emails[(index + 10) % emails.length], password } });
    const cookie = (await signIn(0)).answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const discovery = await (await fetch(`${origin}/.well-known/openid-configuration`)).json();
    const tokens = await signInApp(origin, discovery, 1);
    const credentials = clientAuthentication(benchClient);
    let refreshToken = tokens.refresh_token;
    const refresh = async () => {
      const { text } = await send(discovery.token_endpoint, {
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, ...credentials.form }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", ...credentials.headers },
      });
      refreshToken = JSON.parse(text).refresh_token ?? refreshToken;
    };
    let accessToken = tokens.access_token;
    const operations = {
      "sign-in (email and password)": signIn,
      "session check (GET /api/auth/get-session)": () => send("/api/auth/get-session", { cookie }),
      "fresh page, signed in (/wishing-well)": () => send("/wishing-well", { cookie }),
      "fresh page, signed in (/account/security)": () => send("/account/security", { cookie }),
      "token refresh (rotating)": async () => {
        await refresh();
      },
      "userinfo": () => send(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } }),
    };
    await measureBackground();
    const rows = [];
    for (const [name, action] of Object.entries(operations)) {
      if (name === "userinfo") accessToken = (await signInApp(origin, discovery, 2)).access_token;
      const cost = await perOperation(action);
      rows.push(row({ figure: `${name}: SQL statements (transactions ${cost.transactions.toFixed(1)})`, value: cost.statements, unit: "", target: "(counted)", met: true }));
      rows.push(row({ figure: `${name}: Redis commands / round trips`, value: cost.redisCommands, unit: `/ ${cost.redisRoundTrips.toFixed(1)}`, target: "(counted)", met: true }));
      rows.push(row({ figure: `${name}: server CPU`, value: cost.cpu, unit: "ms", target: "(reported)", met: true }));
    }
    return rows;
  } finally {
    await site.stop();
    await drop();
    fs.rmSync(countsFile, { force: true });
  }
}

await runAlone(import.meta, run);
