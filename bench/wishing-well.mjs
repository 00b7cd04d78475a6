// Throughput of the wishing-well board (wrk; target: ≥ 800 req/s at 50 connections, p99 ≤ 100 ms) next to a
// server-rendered content page measured in the same run. Seeds 60 wishes with votes into a fresh SQLite file,
// then measures a visitor, and a signed-in guest (session lookup + vote state) on the board and a permalink.
//   npm run build && node bench/wishing-well.mjs
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describeLoad, load } from "./lib.mjs";

const buildDir = process.env.BUILD_DIR || "build";
const port = Number(process.env.BENCH_PORT ?? 3310);
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 50;
const origin = `http://localhost:${port}`;

// wrk (bench/lib.mjs), with wrk's own CPU beside each figure: GENERATOR-BOUND where wrk, not the site, was the limit.
async function measure(url, headers = {}) {
  const result = await load(url, { connections, duration, headers: { "accept-encoding": "br, gzip", ...headers } });
  return { reqPerSec: Math.round(result.rps), p99ms: result.p99, load: describeLoad(result) };
}

async function waitFor(url) {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

function seed(dataDir) {
  const db = new SQLite(path.join(dataDir, "app.db"));
  const now = new Date().toISOString();
  const users = Array.from({ length: 30 }, () => randomUUID());
  const insertUser = db.prepare(`insert into "user" (id, name, email, emailVerified, createdAt, updatedAt, isAnonymous, role) values (?, '訪客用戶', ?, 0, ?, ?, 1, 'user')`);
  const insertWish = db.prepare(`insert into wishes (id, author_id, title, body, status, vote_count, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertVote = db.prepare(`insert into wish_votes (wish_id, user_id, created_at) values (?, ?, ?)`);
  const statuses = ["open", "received", "planned", "done", "declined"];
  db.transaction(() => {
    for (const id of users) insertUser.run(id, `${id}@guest.invalid`, now, now);
    for (let index = 0; index < 60; index++) {
      const id = randomUUID();
      const voters = users.slice(0, index % 25);
      const created = new Date(Date.now() - index * 60_000).toISOString();
      insertWish.run(id, users[29], `希望可以新增第 ${index + 1} 個功能`, "說明這個功能為什麼對家裡有幫助。".repeat(4), statuses[index % 5], voters.length, created, created);
      for (const voter of voters) insertVote.run(id, voter, created);
    }
  })();
  const first = db.prepare("select id from wishes order by created_at desc limit 1").get();
  db.close();
  return first.id;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-wishes-"));
const site = spawn(process.execPath, ["server.mjs"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), SITE_URL: origin, DATA_DIR: dataDir, BUILD_DIR: buildDir, DATABASE_URL: "", REDIS_URL: "" },
  stdio: "ignore",
});
try {
  await waitFor(`${origin}/healthz`);
  const wishId = seed(dataDir);
  const guest = await fetch(`${origin}/api/auth/sign-in/anonymous`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" });
  const cookie = guest.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const rows = {
    "reference: server-rendered /account-deletion": await measure(`${origin}/account-deletion`),
    "visitor: /wishing-well": await measure(`${origin}/wishing-well`),
    "visitor: /wishing-well?order=votes&page=2": await measure(`${origin}/wishing-well?order=votes&page=2`),
    "visitor: /wishing-well/:id": await measure(`${origin}/wishing-well/${wishId}`),
    "signed-in guest: /wishing-well": await measure(`${origin}/wishing-well`, { cookie }),
  };
  console.table(rows);
} finally {
  site.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
