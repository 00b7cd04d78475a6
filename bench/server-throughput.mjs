// Throughput of the built site (wrk, one thread, 50 connections, gzip accepted) with references measured in the same
// run: for the prerendered pages nginx (Debian's, started here with its own config, one worker like our one Node
// process) serving the same files with gzip_static, and the fastest Node static server (bench/static-reference-
// server.mjs: bare node:http answering the same gzip bytes with the same headers from memory); for the
// server-rendered pages the site's own /healthz.
//   npm run build && node bench/server-throughput.mjs      (BUILD_DIR, BENCH_PORT, BENCH_SECONDS, NGINX_PATH)
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { pageHtml } from "./budgets.mjs";
import { basePort, buildDir, describeLoad, load, row, runAlone } from "./lib.mjs";
import { hasNginx, startNginx as startNginxWith } from "./scale-out.mjs";

const sitePort = basePort + 10;
const nginxPort = basePort + 11;
const bareNodePort = basePort + 12;
const staticPages = ["/", "/features"];
// Rendered per request. The wishing well and the dev blog read the database once they land; until then these
// are their announcement pages. `/blog?page=2` is a list page that cannot be a file.
const ssrPages = ["/wishing-well", "/dev-blog", "/blog?page=2"];

/** nginx serving the same files with gzip_static, or null where nginx is not installed. */
async function startNginx(root) {
  if (!hasNginx()) return null;
  return startNginxWith({
    readyUrl: `http://127.0.0.1:${nginxPort}/`,
    httpBlock: `
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:${nginxPort};
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
  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  };
}

export async function run() {
  const rows = [];
  const site = await launchServer({ port: sitePort, buildDir });
  let root, stopNginx, stopBareNode;
  try {
    root = await mirrorPages(site);
    stopNginx = await startNginx(root);
    stopBareNode = await startBareNode(site, root);
    // Every row names the bare node:http and nginx figures of the same run beside the site's, and wrk's own CPU:
    // where wrk's one thread was saturated the figure is the generator's ceiling (GENERATOR-BOUND), not the server's.
    const references = {};
    for (const page of staticPages) {
      const ours = await load(`${site.origin}${page}`);
      const reference = stopNginx ? await load(`http://127.0.0.1:${nginxPort}${page}`) : null;
      const bareNode = await load(`http://127.0.0.1:${bareNodePort}${page}`);
      references[page] = { reference, bareNode };
      const beside = `bare node:http ${Math.round(bareNode.rps)} (${describeLoad(bareNode)})${reference ? `, nginx ${Math.round(reference.rps)} (${describeLoad(reference)})` : ", no nginx installed"}`;
      rows.push(row({
        figure: `prerendered ${page}, req/s (${describeLoad(ours)}; ${beside})`, value: ours.rps, unit: "",
        reference: reference && { label: "nginx", value: reference.rps }, ratio: reference ? ours.rps / reference.rps : undefined,
        target: "≥ 0.6× nginx", met: reference ? ours.rps >= 0.6 * reference.rps && !reference.generatorBound : false,
      }));
      rows.push(row({
        figure: `prerendered ${page} against bare node:http (the embedded default, no nginx)`, value: ours.rps, unit: "",
        reference: { label: "bare node:http", value: bareNode.rps }, ratio: ours.rps / bareNode.rps,
        target: "≥ 0.6× bare node:http", met: ours.rps >= 0.6 * bareNode.rps && !bareNode.generatorBound,
      }));
    }
    const health = await load(`${site.origin}/healthz`);
    const { reference: nginxHome, bareNode: bareHome } = references["/"];
    for (const page of ssrPages) {
      const exists = (await fetch(`${site.origin}${page}`)).status === 200;
      if (!exists) continue;
      const ours = await load(`${site.origin}${page}`);
      rows.push(row({
        figure: `server-rendered ${page}, req/s (${describeLoad(ours)}; /healthz ${describeLoad(health)}; prerendered / from bare node:http ${Math.round(bareHome.rps)}${nginxHome ? `, nginx ${Math.round(nginxHome.rps)}` : ""})`,
        value: ours.rps, unit: "",
        reference: { label: "/healthz", value: health.rps }, ratio: ours.rps / health.rps,
        target: "≥ 800 req/s, p99 ≤ 100 ms", met: ours.rps >= 800 && ours.p99 <= 100,
      }));
    }
  } finally {
    await stopBareNode?.();
    await stopNginx?.();
    await site.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

await runAlone(import.meta, run);
