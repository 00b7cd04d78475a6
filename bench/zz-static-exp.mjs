import fs from "node:fs";
import { fork } from "node:child_process";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { load } from "./lib.mjs";
const cpuMs = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
async function measure(url, pid) {
  const before = cpuMs(pid);
  const r = await load(url);
  return `${Math.round(r.rps)} req/s, ${((cpuMs(pid) - before) * 1000 / (r.rps * 6)).toFixed(0)} µs/answer, wrk ${r.generatorCores.toFixed(2)}`;
}
const variants = JSON.parse(process.argv[2] ?? '[{}]');
let port = 3400;
for (const env of variants) {
  const site = await launchServer({ port: port++, buildDir: "build-test", env });
  const deadline = Date.now() + 60000;
  while (!site.output().includes('"event":"start"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const res = await fetch(`${site.origin}/`, { headers: { "accept-encoding": "gzip" } });
  const body = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries([...res.headers].filter(([n]) => !["date","connection","keep-alive","content-length","transfer-encoding"].includes(n)));
  fs.writeFileSync("/tmp/home.gz", body);
  console.log(JSON.stringify(env), "site:", await measure(`${site.origin}/`, site.pid));
  await site.stop?.();
  if (!variants.bareDone) {
    const child = fork(new URL("static-reference-server.mjs", import.meta.url), { env: { ...process.env, STATIC_REFERENCE: JSON.stringify({ port: 3399, pages: { "/": { file: "/tmp/home.gz", headers } } }) } });
    await new Promise((r) => child.once("message", r));
    console.log("bare:", await measure("http://127.0.0.1:3399/", child.pid));
    child.kill(); variants.bareDone = true;
  }
}
process.exit(0);
