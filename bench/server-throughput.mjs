// Throughput of the built site (wrk, one thread, 50 connections, gzip accepted) with references measured in the same
// run: for the prerendered pages nginx (Debian's, started here with its own config, one worker like our one Node
// process) serving the same files with gzip_static, and the fastest Node static server (bench/static-reference-
// server.mjs: bare node:http answering the same gzip bytes with the same headers from memory); for the
// server-rendered pages the site's own /healthz. The deploy recipe's nginx (deploy/start-proxy.sh) in front of the
// site answers the prerendered pages itself: measured over https beside nginx serving the files over https.
//   npm run build && node bench/server-throughput.mjs      (BUILD_DIR, BENCH_PORT, BENCH_SECONDS, NGINX_PATH)
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { pageHtml } from "./budgets.mjs";
import { basePort, buildDir, describeLoad, load, row, runAlone, seconds } from "./lib.mjs";
import { hasNginx, startNginx as startNginxWith, startRecipeProxy } from "./scale-out.mjs";

const sitePort = basePort + 10;
const nginxPort = basePort + 11;
const bareNodePort = basePort + 12;
const chainPort = basePort + 13;
const recipePort = basePort + 14;
const nginxTlsPort = basePort + 15;
const staticPages = ["/", "/features"];
// Rendered per request. The wishing well and the dev blog read the database once they land; until then these
// are their announcement pages. `/blog?page=2` is a list page that cannot be a file.
const ssrPages = ["/wishing-well", "/dev-blog", "/blog?page=2"];
// A signed-in parent sees these pages with their own user area: rendered for them, against the visitor's answer
// (the prerendered page, the page cache) in the same run.
const signedInPages = ["/", "/wishing-well"];
// A parent's own pages, rendered for them on every request.
const accountPages = ["/account", "/account/security", "/account/family"];

/** nginx serving the same files with gzip_static, over http and over https with `tlsDir`'s certificate. */
async function startNginx(root, tlsDir) {
  return startNginxWith({
    readyUrl: `http://127.0.0.1:${nginxPort}/`,
    httpBlock: `
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:${nginxPort};
    listen 127.0.0.1:${nginxTlsPort} ssl;
    ssl_certificate ${tlsDir}/cert.pem;
    ssl_certificate_key ${tlsDir}/key.pem;
    root ${path.resolve(root)};
    gzip_static on;
    etag on;
    location / { try_files $uri $uri/index.html =404; }
  }`,
  });
}

/** Our answer's headers for a page, for the reference server to send the same (Node adds its own connection headers). */
async function pageHeaders(url) {
  const response = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  await response.arrayBuffer();
  if (response.headers.get("content-encoding") !== "gzip") throw new Error(`${url} did not answer gzip`);
  const ownedByNode = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
  return Object.fromEntries([...response.headers].filter(([name]) => !ownedByNode.has(name)));
}

/**
 * The site's start-up pages as files (the build holds none, decision 1030), the way the static servers expect them:
 * `<page>/index.html` and its `.gz` (level 9, as the site's own), beside a link to the build's assets.
 */
async function mirrorPages(site) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pages-"));
  fs.chmodSync(root, 0o755); // nginx's workers drop root's rights: a private temp folder would answer 403
  fs.symlinkSync(path.resolve(buildDir, "client/assets"), path.join(root, "assets"));
  for (const page of staticPages) {
    const html = Buffer.from(await pageHtml(site.origin, page));
    const dir = path.join(root, page);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "index.html"), html);
    fs.writeFileSync(path.join(dir, "index.html.gz"), zlib.gzipSync(html, { level: 9 }));
  }
  return root;
}

async function startBareNode(site, root) {
  const pages = {};
  for (const page of staticPages) {
    const file = path.join(root, page, "index.html.gz");
    pages[page] = { file, headers: await pageHeaders(`${site.origin}${page}`) };
  }
  const child = fork(new URL("static-reference-server.mjs", import.meta.url), {
    env: { ...process.env, STATIC_REFERENCE: JSON.stringify({ port: bareNodePort, pages }) },
    stdio: "inherit",
  });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the reference static server exited (code ${code})`)));
  });
  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  };
  return { pid: child.pid, stop };
}

/** CPU ms a process has used (user + system), from /proc: clock ticks of 10 ms. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * wrk against a server, and the server's CPU per request in µs: on a shared machine the rate swings with the
 * neighbours, the CPU an answer costs much less. The unmeasured warm-up second is counted at the measured rate.
 */
async function loadWithCpu(url, pid, headers = {}) {
  const before = cpuMs(pid);
  const result = await load(url, { headers });
  return { ...result, cpuUs: ((cpuMs(pid) - before) * 1000) / (result.rps * (seconds + 1)) };
}

/** The start line says the pages the same for every visitor are rendered (until then they are rendered per request). */
async function pagesRendered(site) {
  const deadline = Date.now() + 60_000;
  while (!site.output().includes('"event":"start"')) {
    if (Date.now() > deadline) throw new Error(`no start line within 60 s:\n${site.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A parent's session cookie: a fresh account, signed up through the API. */
async function parentCookie(site) {
  const answer = await fetch(`${site.origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin: site.origin, "content-type": "application/json" },
    body: JSON.stringify({ email: "bench-parent@example.tw", password: "bench-password-for-a-parent-1", name: "王小明" }),
  });
  if (!answer.ok) throw new Error(`sign-up answered ${answer.status}: ${await answer.text()}`);
  return answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}

/**
 * The account pages one at a time (a parent on a quiet site) and `/account` at 16 connections (a busy hour),
 * beside /healthz at the same concurrency: the process's floor per request.
 */
async function accountPageRows(site, cookie) {
  const rows = [];
  const floor = await load(`${site.origin}/healthz`, { connections: 1 });
  for (const page of accountPages) {
    const answer = await fetch(`${site.origin}${page}`, { headers: { cookie }, redirect: "manual" });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`${page} answered ${answer.status} to a signed-in parent`);
    const alone = await load(`${site.origin}${page}`, { connections: 1, headers: { cookie } });
    rows.push(row({
      figure: `signed-in ${page}, one at a time, p50 ms (${describeLoad(alone)}, ${Math.round(alone.rps)} req/s)`, value: alone.p50, unit: "ms",
      reference: { label: "/healthz, one at a time", value: floor.p50, unit: "ms" }, ratio: alone.p50 / floor.p50,
      target: "≤ 10 ms", met: alone.p50 <= 10,
    }));
  }
  const busy = await load(`${site.origin}/account`, { connections: 16, headers: { cookie } });
  const busyFloor = await load(`${site.origin}/healthz`, { connections: 16 });
  rows.push(row({
    figure: `signed-in /account, 16 at once, req/s (${describeLoad(busy)}; /healthz ${describeLoad(busyFloor)})`, value: busy.rps, unit: "",
    reference: { label: "/healthz, 16 at once", value: busyFloor.rps }, ratio: busy.rps / busyFloor.rps,
    target: "≥ 400 req/s, p99 ≤ 100 ms", met: busy.rps >= 400 && busy.p99 <= 100,
  }));
  return rows;
}

/** Each page's median latency at 50 connections for a signed-in parent against the visitor's, in the same run. */
async function signedInRows(site) {
  const cookie = await parentCookie(site);
  const rows = await accountPageRows(site, cookie);
  for (const page of signedInPages) {
    const visitor = await loadWithCpu(`${site.origin}${page}`, site.pid);
    const parent = await loadWithCpu(`${site.origin}${page}`, site.pid, { cookie });
    const answers = (result) => `${Math.round(result.rps)} req/s, ${result.cpuUs.toFixed(0)} µs CPU per answer`;
    rows.push(row({
      figure: `signed-in ${page}, p50 ms (${describeLoad(parent)}, ${answers(parent)}; the visitor's ${describeLoad(visitor)}, ${answers(visitor)})`,
      value: parent.p50, unit: "ms",
      reference: { label: "visitor", value: visitor.p50, unit: "ms" }, ratio: parent.p50 / visitor.p50,
      target: "≤ 2× the visitor's", met: parent.p50 <= 2 * visitor.p50,
    }));
  }
  return rows;
}

/**
 * The prerendered `/` with MEMORY_ANSWERS=off: through the whole middleware chain, as before the answers from memory
 * (server/memory-answers.ts), beside the bare node:http figure of the same run. For comparison, no target.
 */
async function throughTheChain(bareHome) {
  const chain = await launchServer({ port: chainPort, buildDir, env: { MEMORY_ANSWERS: "off" } });
  try {
    await pagesRendered(chain);
    const ours = await loadWithCpu(`${chain.origin}/`, chain.pid);
    return row({
      figure: `prerendered / through the middleware chain (MEMORY_ANSWERS=off), req/s (${describeLoad(ours)}; ${ours.cpuUs.toFixed(0)} µs CPU per answer, bare node:http ${bareHome.cpuUs.toFixed(0)} µs)`, value: ours.rps, unit: "",
      reference: { label: "bare node:http", value: bareHome.rps }, ratio: ours.rps / bareHome.rps,
      target: "for comparison", met: true,
    });
  } finally {
    await chain.stop();
  }
}

export async function run() {
  const rows = [];
  if (!hasNginx()) throw new Error("the references need nginx: apt-get install -y nginx-light");
  const site = await launchServer({ port: sitePort, buildDir });
  let root, stopNginx, bareNodeServer, recipe;
  try {
    await pagesRendered(site);
    root = await mirrorPages(site);
    recipe = await startRecipeProxy({ upstreamPorts: [sitePort], tlsPort: recipePort });
    stopNginx = await startNginx(root, recipe.run);
    bareNodeServer = await startBareNode(site, root);
    // Every row names the bare node:http and nginx figures of the same run beside the site's, and wrk's own CPU:
    // where wrk's one thread was saturated the figure is the generator's ceiling (GENERATOR-BOUND), not the server's.
    const references = {};
    for (const page of staticPages) {
      const ours = await loadWithCpu(`${site.origin}${page}`, site.pid);
      const reference = await load(`http://127.0.0.1:${nginxPort}${page}`);
      const bareNode = await loadWithCpu(`http://127.0.0.1:${bareNodePort}${page}`, bareNodeServer.pid);
      const kept = await load(`https://localhost:${recipePort}${page}`);
      const filesOverTls = await load(`https://localhost:${nginxTlsPort}${page}`);
      references[page] = { reference, bareNode };
      const beside = `bare node:http ${Math.round(bareNode.rps)} (${describeLoad(bareNode)}), nginx ${Math.round(reference.rps)} (${describeLoad(reference)}): ${(ours.rps / reference.rps).toFixed(2)}× nginx`;
      // Issue 43.3: the deploy recipe's nginx answers the page itself, so the site is held to bare node:http alone.
      rows.push(row({
        figure: `prerendered ${page} through the deploy recipe's nginx, which answers it itself, https, req/s (${describeLoad(kept)}; nginx serving the files over https ${describeLoad(filesOverTls)})`,
        value: kept.rps, unit: "",
        reference: { label: "nginx, the files, https", value: filesOverTls.rps }, ratio: kept.rps / filesOverTls.rps,
        target: "≥ 0.6× nginx", met: kept.rps >= 0.6 * filesOverTls.rps && !filesOverTls.generatorBound,
      }));
      rows.push(row({
        figure: `prerendered ${page}, the embedded default (no nginx), req/s (${describeLoad(ours)}; ${beside})`, value: ours.rps, unit: "",
        reference: { label: "bare node:http", value: bareNode.rps }, ratio: ours.rps / bareNode.rps,
        target: "≥ 0.6× bare node:http", met: ours.rps >= 0.6 * bareNode.rps && !bareNode.generatorBound,
      }));
      // What a busy machine leaves standing: the CPU each answer costs, bare node:http's over ours.
      rows.push(row({
        figure: `prerendered ${page}, server CPU per answer, µs (bare node:http ${bareNode.cpuUs.toFixed(0)} µs)`, value: ours.cpuUs, unit: "µs",
        reference: { label: "bare node:http", value: bareNode.cpuUs, unit: "µs" }, ratio: bareNode.cpuUs / ours.cpuUs,
        target: "≥ 0.6× (answers per CPU second)", met: bareNode.cpuUs >= 0.6 * ours.cpuUs,
      }));
    }
    const health = await load(`${site.origin}/healthz`);
    const { reference: nginxHome, bareNode: bareHome } = references["/"];
    for (const page of ssrPages) {
      const exists = (await fetch(`${site.origin}${page}`)).status === 200;
      if (!exists) continue;
      const ours = await load(`${site.origin}${page}`);
      rows.push(row({
        figure: `server-rendered ${page}, req/s (${describeLoad(ours)}; /healthz ${describeLoad(health)}; prerendered / from bare node:http ${Math.round(bareHome.rps)}, nginx ${Math.round(nginxHome.rps)})`,
        value: ours.rps, unit: "",
        reference: { label: "/healthz", value: health.rps }, ratio: ours.rps / health.rps,
        target: "≥ 800 req/s, p99 ≤ 100 ms", met: ours.rps >= 800 && ours.p99 <= 100,
      }));
    }
    rows.push(...(await signedInRows(site)));
    rows.push(await throughTheChain(bareHome));
  } finally {
    await bareNodeServer?.stop();
    await stopNginx?.();
    await recipe?.stop();
    await site.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

await runAlone(import.meta, run);
