import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "~/db/connection.server";

/**
 * `npm run import:firebase` killed with SIGKILL in the middle of a run (issue 40: "a crash mid-run leaves what was
 * written whole and the next run finishes it"), on SQLite and PostgreSQL: what the killed run wrote is whole
 * accounts (each with every way in), and the next run imports the rest and leaves those alone.
 */
const count = 6_000;
const signerKey = randomBytes(64).toString("base64");
const kinds = ["password", "password", "password", "google", "phone", "guest"] as const;

/** An export like `firebase auth:export`: the hashes are random bytes of Firebase's length (the import never checks them). */
function exportFile(folder: string): { file: string; waysIn: number } {
  const run = randomBytes(3).toString("hex");
  let waysIn = 0;
  const users = Array.from({ length: count }, (_, index) => {
    const kind = kinds[index % kinds.length]!;
    const localId = `${run}${String(index).padStart(6, "0")}${randomBytes(8).toString("hex")}`.slice(0, 28);
    const email = `kill-${run}-${index}@example.tw`;
    const base = { localId, createdAt: String(1_600_000_000_000 + index) };
    if (kind === "guest") return base;
    waysIn += 1;
    if (kind === "phone") {
      const phone = `+8869${String(10_000_000 + index).slice(-8)}`;
      return { ...base, phoneNumber: phone, providerUserInfo: [{ providerId: "phone", rawId: phone, phoneNumber: phone }] };
    }
    if (kind === "google") return { ...base, email, emailVerified: true, providerUserInfo: [{ providerId: "google.com", rawId: `g-${run}-${index}`, email }] };
    return {
      ...base,
      email,
      emailVerified: true,
      passwordHash: randomBytes(64).toString("base64"),
      salt: randomBytes(12).toString("base64"),
      providerUserInfo: [{ providerId: "password", rawId: email, email }],
    };
  });
  const file = path.join(folder, "users.json");
  fs.writeFileSync(file, JSON.stringify({ users }));
  // Phone numbers are kept on the user, not as an account row; every other way in is one row.
  return { file, waysIn: waysIn - users.filter((user) => "phoneNumber" in user).length };
}

const importArgs = (file: string) => ["scripts/import-firebase.mjs", "--users", file, "--hash-key", signerKey, "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14"];

/** Runs the import and kills it with SIGKILL once its progress passes a fifth (and before it ends). */
function importKilledMidway(file: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, importArgs(file), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const watch = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const done = [...output.matchAll(/(\d+)\/(\d+) 個帳號/g)].map(([, doneCount]) => Number(doneCount)).at(-1) ?? 0;
      if (done >= count / 5 && done < count && child.exitCode === null) child.kill("SIGKILL");
    };
    child.stdout.on("data", watch);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code, signal) => (signal === "SIGKILL" ? resolve(output) : reject(new Error(`the import ended by itself (${code}) before it could be killed:\n${output}`))));
  });
}

async function counts(options: Parameters<typeof openDatabase>[0]) {
  const { db } = openDatabase(options);
  try {
    const users = Number((await db.selectFrom("user").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
    const accounts = Number((await db.selectFrom("account").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
    // A whole account: every user imported with a way in has its row (guests and phone-only parents need none).
    const withoutTheirRow = Number(
      (
        await db
          .selectFrom("user")
          .where("email", "not like", "%.invalid")
          .where("phoneNumber", "is", null)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom("account").select("account.id").whereRef("account.userId", "=", "user.id"))))
          .select(sql<number>`count(*)`.as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    return { users, accounts, withoutTheirRow };
  } finally {
    await db.destroy();
  }
}

function importToTheEnd(file: string, env: NodeJS.ProcessEnv): string {
  const finished = spawnSync(process.execPath, importArgs(file), { env, encoding: "utf8" });
  expect(finished.status, finished.stderr).toBe(0);
  return finished.stdout;
}

describe("the Firebase import killed with SIGKILL midway", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "firebase-kill-"));
  const { file, waysIn } = exportFile(folder);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Killed once, then run to the end: whole accounts after the kill, all of them after the rerun, each once. */
  async function killThenFinish(env: NodeJS.ProcessEnv, where: Parameters<typeof openDatabase>[0]) {
    await importKilledMidway(file, env);
    const afterKill = await counts(where);
    expect(afterKill.users).toBeGreaterThan(0);
    expect(afterKill.users).toBeLessThan(count);
    expect(afterKill.withoutTheirRow).toBe(0);

    const summary = importToTheEnd(file, env);
    expect(summary).toContain(`共 ${count} 個帳號：新匯入 ${count - afterKill.users}、更新 0、未變 ${afterKill.users}、略過 0`);
    expect(await counts(where)).toEqual({ users: count, accounts: waysIn, withoutTheirRow: 0 });
  }

  it("SQLite: the rerun imports the rest, and what the killed run wrote is whole", { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(folder, "data-"));
    await killThenFinish({ ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" }, { dataDir });
  });

  it.skipIf(!inject("postgresUrl"))("PostgreSQL: the rerun imports the rest, and what the killed run wrote is whole", { timeout: 180_000 }, async () => {
    const server = inject("postgresUrl")!;
    const name = `firebase_kill_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database ${name} with (force)`).catch(() => undefined);
      await admin.end();
    });
    const databaseUrl = Object.assign(new URL(server), { pathname: `/${name}` }).href;
    await killThenFinish({ ...process.env, NODE_ENV: "production", DATA_DIR: folder, DATABASE_URL: databaseUrl, REDIS_URL: "" }, { databaseUrl, dataDir: folder });
  });
});
