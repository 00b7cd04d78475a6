// First-load JavaScript of the prerendered home page, in KB gzip: every /assets/*.js the HTML of `/` references
// (module scripts, modulepreloads, the inline route imports), each gzipped at level 9, summed. Printed against the
// 125 KB budget and two baselines: React + React Router alone on a trivial page (~109 KB, measured when the stack
// was chosen), and, from this same build, the entry chunk with everything it imports (the framework runtime).
// Usage: npm run build && node bench/first-load-js.mjs   (BUILD_DIR picks another build folder)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const BUDGET_KB = 125;
const TRIVIAL_PAGE_KB = 109;
const client = path.join(process.env.BUILD_DIR || "build", "client");
const html = fs.readFileSync(path.join(client, "index.html"), "utf8");

const gzipKb = (file) => zlib.gzipSync(fs.readFileSync(path.join(client, file)), { level: 9 }).length / 1024;
const referenced = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])].map((src) => src.slice(1));

/** A chunk plus every chunk it imports statically, followed transitively. */
function withImports(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(path.join(client, file), "utf8");
  for (const [, relative] of source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) withImports(`assets/${relative}`, seen);
  return seen;
}

const entry = referenced.find((file) => /\/entry\.client-/.test(file));
if (!entry) throw new Error("no entry.client chunk referenced by index.html: is this a React Router build?");
const runtime = [...withImports(entry)];
const sum = (files) => files.reduce((total, file) => total + gzipKb(file), 0);
const total = sum(referenced);
const runtimeKb = sum(runtime);

for (const file of referenced) console.log(`${gzipKb(file).toFixed(1).padStart(7)} KB  ${file}${runtime.includes(file) ? "  (runtime)" : ""}`);
console.log("");
console.log(`first-load JS of /          ${total.toFixed(1)} KB gzip`);
console.log(`runtime chunks, this build  ${runtimeKb.toFixed(1)} KB gzip  → site code on /: ${(total - runtimeKb).toFixed(1)} KB`);
console.log(`trivial page (reference)    ${TRIVIAL_PAGE_KB} KB gzip  → ${(total - TRIVIAL_PAGE_KB).toFixed(1)} KB above it`);
console.log(`budget                      ${BUDGET_KB} KB gzip  → ${total <= BUDGET_KB ? "within" : "OVER"} (${(BUDGET_KB - total).toFixed(1)} KB left)`);
process.exitCode = total <= BUDGET_KB ? 0 : 1;
