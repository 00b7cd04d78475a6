// Compares two ways for the app and Better Auth to write one SQLite file (decision 602), and the cost of
// synchronous=FULL over NORMAL. Each "sign-up" is a transaction that reads, waits a tick (as an async hash or
// hook would), then writes; "events" are plain inserts from other requests meanwhile.
//   node bench/sqlite-writers.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";

const SIGN_UPS = 2_000;
const EVENTS = 2_000;
const CONCURRENCY = 50;

function open(file, synchronous) {
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${synchronous}`);
  database.pragma("busy_timeout = 5000");
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

async function run(label, { separate, synchronous }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-writers-"));
  const file = path.join(dir, "bench.db");
  const app = open(file, synchronous);
  await sql`create table users (id integer primary key, email text unique)`.execute(app);
  await sql`create table events (id integer primary key, name text)`.execute(app);
  const auth = separate ? open(file, synchronous) : app;
  let errors = 0;
  const started = performance.now();
  const jobs = [];
  for (let index = 0; index < SIGN_UPS; index += 1) {
    jobs.push(() =>
      auth.transaction().execute(async (trx) => {
        await sql`select id from users where email = ${`u${index}@x`}`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await sql`insert into users (email) values (${`u${index}@x`})`.execute(trx);
      }),
    );
    if (index < EVENTS) jobs.push(() => sql`insert into events (name) values ('page_view')`.execute(app));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        await job().catch(() => (errors += 1));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(44)} ${Math.round(jobs.length / seconds).toString().padStart(6)} writes/s  errors ${errors}`);
  await app.destroy();
  if (separate) await auth.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

await run("one connection, one queue, synchronous=NORMAL", { separate: false, synchronous: "NORMAL" });
await run("one connection, one queue, synchronous=FULL", { separate: false, synchronous: "FULL" });
await run("two connections + busy_timeout, NORMAL", { separate: true, synchronous: "NORMAL" });
await run("two connections + busy_timeout, FULL", { separate: true, synchronous: "FULL" });
