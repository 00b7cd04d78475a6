// The scale table (issue 30): 1, 2 and 4 instances of the built site on one PostgreSQL database and one Redis key
// prefix behind one nginx, as the deploy recipe runs them, for sign-in, token refresh and a fresh signed-in page:
// throughput, p99 and errors, each count of instances beside the one-instance figure of the same run. All of it on
// this machine's cores, load generator included, so the table shows what more instances cost and where they stop
// helping here; the per-operation counts of bench/operation-costs.mjs say how it grows on real hosts.
//   npm run build && node bench/scale.mjs     (BUILD_DIR, BENCH_PORT, BENCH_SECONDS, SCALE_INSTANCES=1,2,4,
//                                              TEST_DATABASE_URL, TEST_REDIS_URL, NGINX_PATH)
import { performance } from "node:perf_hooks";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, load, row, runAlone, seconds } from "./lib.mjs";
import { benchClient, refreshLoad, signInApp } from "./oidc-endpoints.mjs";
import { freshScaleOut, redisUrl, startNginx } from "./scale-out.mjs";

const counts = (process.env.SCALE_INSTANCES ?? "1,2,4").split(",").map(Number);
const password = "tide-lantern-47";
const nginxPort = basePort + 61;
const chains = 16;

/** nginx in front of `ports`, as deploy/nginx.conf.template passes requests on (plain http here). */
const nginxInFront = (ports) =>
  startNginx({
    workerConnections: 4096,
    readyUrl: `http://localhost:${nginxPort}/healthz`,
    httpBlock: `
  upstream site {
    ${ports.map((port) => `server 127.0.0.1:${port};`).join("\n    ")}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${nginxPort};
    listen [::1]:${nginxPort};
    location / {
      proxy_pass http://site;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`,
  });

/** `inFlight` sign-ins at a time for `seconds`, each from its own address: per second, p99 and errors. */
async function signInLoad(origin, emails, inFlight) {
  const latencies = [];
  let errors = 0;
  let visitor = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (performance.now() < until) {
      visitor += 1;
      const started = performance.now();
      const answer = await fetch(`${origin}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, "x-forwarded-for": `10.88.${(visitor >> 8) & 255}.${visitor & 255}` },
        body: JSON.stringify({ email: emails[visitor % emails.length], password }),
      }).catch(() => null);
      await answer?.arrayBuffer();
      latencies.push(performance.now() - started);
      if (answer?.status !== 200) errors += 1;
    }
  }));
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0), errors };
}

async function measure(count) {
  const { id, databaseUrl, redisPrefix, drop } = await freshScaleOut("scale");
  const origin = `http://localhost:${nginxPort}`;
  const instances = [];
  let stopNginx;
  try {
    // One after another: the first migrates the fresh database.
    for (let index = 0; index < count; index += 1) {
      instances.push(await launchServer({
        port: basePort + 62 + index,
        buildDir,
        env: {
          SITE_URL: origin, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisPrefix, TRUSTED_PROXIES: "127.0.0.1",
          OIDC_CLIENTS: JSON.stringify([{ client_id: benchClient.id, client_name: "效能測試 App", redirect_uris: [benchClient.redirectUri], public: false, first_party: true }]),
          [`OIDC_CLIENT_SECRET_${benchClient.id.toUpperCase().replace(/[-.]/g, "_")}`]: benchClient.secret,
        },
      }));
    }
    stopNginx = await nginxInFront(instances.map((instance) => Number(new URL(instance.origin).port)));

    // Verified accounts for the sign-ins (the development mailbox answers this machine's own requests only: asked
    // of the first instance directly).
    const direct = instances[0].origin;
    const emails = Array.from({ length: 20 }, (_, index) => `scale-${id}-${index}@example.tw`);
    for (const [index, email] of emails.entries()) {
      await (await fetch(`${origin}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, "x-forwarded-for": `10.89.0.${index}` },
        body: JSON.stringify({ email, password, name: "bench" }),
      })).arrayBuffer();
    }
    for (const email of emails) {
      let link;
      for (let attempt = 0; attempt < 100 && !link; attempt += 1) {
        const mails = await (await fetch(`${direct}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
        link = mails.flatMap((mail) => mail.links).find((candidate) => candidate.includes("/verify-email"));
        if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await (await fetch(`${direct}/api/auth/verify-email?token=${encodeURIComponent(new URL(link).searchParams.get("token"))}`)).arrayBuffer();
    }
    const first = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST", headers: { "content-type": "application/json", origin, "x-forwarded-for": "10.89.1.1" }, body: JSON.stringify({ email: emails[0], password }),
    });
    const cookie = first.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");

    const discovery = await (await fetch(`${origin}/.well-known/openid-configuration`)).json();
    const tokens = [];
    for (let index = 0; index < chains; index += 1) tokens.push((await signInApp(origin, discovery, index)).refresh_token);

    const signIn = await signInLoad(origin, emails, 16);
    const page = await load(`${origin}/wishing-well`, { connections: 50, headers: { cookie } });
    // The same page from the first instance without nginx in between, the same minutes: what the proxy costs.
    const pageDirect = await load(`${direct}/wishing-well`, { connections: 50, headers: { cookie } });
    // refreshLoad throws on any failed refresh: a failure is an error of the table, counted as all of them.
    const refresh = await refreshLoad(discovery.token_endpoint, benchClient, tokens).catch(() => ({ rps: 0, p99: 0, failed: true }));
    // The instances' own complaints (a timeout, a refused connection) explain a bad figure: on standard error.
    for (const instance of instances) {
      const complaints = instance.output().split("\n").filter((line) => /"level":(40|50)/.test(line) && !/site-url-mismatch|Discovery fetch|Provider "dev"/.test(line));
      if (complaints.length) console.error(`${instance.origin}: ${complaints.length} warnings or errors, the first: ${complaints[0].slice(0, 400)}`);
    }
    return { signIn, page, pageDirect, refresh };
  } finally {
    await stopNginx?.();
    await Promise.all(instances.map((instance) => instance.stop()));
    await drop();
  }
}

export async function run() {
  const results = new Map();
  for (const count of counts) results.set(count, await measure(count));
  const [reference] = counts;
  const base = results.get(reference);
  const rows = [];
  for (const [count, result] of results) {
    const versus = (value, baseValue) => (count === reference ? {} : { reference: { label: `${reference} instance(s)`, value: baseValue }, ratio: value / baseValue });
    rows.push(row({ figure: `${count} instance(s): sign-ins/s, 16 in flight (p99 ${result.signIn.p99} ms, ${result.signIn.errors} errors)`,
      value: result.signIn.rps, unit: "", ...versus(result.signIn.rps, base.signIn.rps), target: "(reported)", met: result.signIn.errors === 0 }));
    rows.push(row({ figure: `${count} instance(s): token refreshes/s, ${chains} chains (p99 ${result.refresh.p99} ms${result.refresh.failed ? ", FAILED" : ""})`,
      value: result.refresh.rps, unit: "", ...versus(result.refresh.rps, base.refresh.rps), target: "(reported)", met: !result.refresh.failed }));
    rows.push(row({ figure: `${count} instance(s): /wishing-well signed in, req/s at 50 (p99 ${result.page.p99} ms)`,
      value: result.page.rps, unit: "", ...versus(result.page.rps, base.page.rps), target: "(reported)", met: true }));
    rows.push(row({ figure: `${count} instance(s): the same page from one instance, no nginx (p99 ${result.pageDirect.p99} ms)`,
      value: result.pageDirect.rps, unit: "", reference: { label: "through nginx", value: result.page.rps }, ratio: result.pageDirect.rps / result.page.rps, target: "(reported)", met: true }));
  }
  return rows;
}

await runAlone(import.meta, run);
