import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { multipart } from "~tests/integration/storage-fixtures";
import { postJson, siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * Account deletion is all or nothing under kill -9, on SQLite and PostgreSQL, on the default worker count: 21
 * parents with files ask for their deletion and every process of the site is killed as the first deletion is
 * answered. After a restart, an account is either gone with its files, or alive with every file readable: none is
 * alive with its files gone.
 */
const password = "deletion-test-password-1";
const defaults = {
  WEB_CONCURRENCY: "auto",
  RATE_LIMIT_SIGN_UP_PER_IP: "100000/60",
  RATE_LIMIT_AUTH_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: "100000/60",
};
const accountCount = 21;
const filesEach = 2;

interface Parent {
  uid: string;
  cookie: string;
}

async function signUp(site: SiteProcess): Promise<Parent> {
  const response = await postJson(site.baseURL, "/api/auth/sign-up/email", { email: `delete-${randomUUID()}@example.tw`, password, name: "家長" });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  return { uid: body.user.id, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") };
}

async function upload(site: SiteProcess, who: Parent, name: string, bytes: Buffer) {
  const objectPath = `users/${who.uid}/${name}`;
  const { body, headers } = multipart(objectPath, bytes);
  const response = await fetch(`${site.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
    method: "POST",
    headers: { ...headers, cookie: who.cookie, origin: siteUrl },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** kill -9 on the primary and every worker (each worker's pid is on its log lines). */
function killEveryProcess(site: SiteProcess) {
  const pids = new Set([site.child.pid, ...[...site.output().matchAll(/"pid":(\d+)/g)].map((match) => Number(match[1]))]);
  for (const pid of pids) {
    try {
      if (pid) process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

interface Rows {
  users: Set<string>;
  objects: { path: string; blob_key: string }[];
}

/**
 * Parents with files ask for deletion, the site is killed mid-way and restarted; returns, counted, the accounts
 * deleted, those alive and whole, and those alive with files gone (or a file whose bytes are gone).
 */
async function deleteUnderKill(env: Record<string, string>, readRows: (dataDir: string) => Promise<Rows>) {
  const site = await startSite({ ...defaults, ...env });
  const image = await sharp(randomBytes(24 * 24 * 3), { raw: { width: 24, height: 24, channels: 3 } }).png().toBuffer();
  const parents = await Promise.all(Array.from({ length: accountCount }, () => signUp(site)));
  for (const parent of parents) {
    for (let index = 0; index < filesEach; index += 1) expect(await upload(site, parent, `f-${index}.png`, image)).toBe(200);
  }
  const deletions = parents.map((parent, index) =>
    new Promise((resolve) => setTimeout(resolve, index * 10))
      .then(() => postJson(site.baseURL, "/api/auth/delete-user", { password }, { cookie: parent.cookie }))
      .then((response) => response.status)
      .catch(() => 0),
  );
  await Promise.race(deletions);
  killEveryProcess(site);
  await site.stop("SIGKILL");
  const acknowledged = (await Promise.all(deletions)).filter((status) => status === 200).length;

  const restarted = await startSite({ ...defaults, ...env }, { dataDir: site.dataDir });
  try {
    const { users, objects } = await readRows(site.dataDir);
    const present = (row: { blob_key: string }) => fs.existsSync(path.join(site.dataDir, "storage", ...row.blob_key.split("/")));
    const counts = { acknowledged, deleted: 0, whole: 0, aliveWithFilesGone: 0 };
    for (const parent of parents) {
      const files = objects.filter((row) => row.path.startsWith(`users/${parent.uid}/`));
      if (!users.has(parent.uid)) counts.deleted += 1;
      else if (files.length === filesEach && files.every(present)) counts.whole += 1;
      else counts.aliveWithFilesGone += 1;
    }
    // Every file row left has its bytes (read through the site, whichever database holds the rows).
    for (const row of objects.filter((entry) => parents.some((parent) => entry.path.startsWith(`users/${parent.uid}/`)))) {
      const owner = parents.find((parent) => row.path.startsWith(`users/${parent.uid}/`))!;
      const read = await fetch(`${restarted.baseURL}/v0/b/default/o/${encodeURIComponent(row.path)}?alt=media`, { headers: { cookie: owner.cookie } });
      await read.arrayBuffer();
      expect(read.status, row.path).toBe(200);
    }
    return counts;
  } finally {
    expect((await restarted.stop()).code).toBe(0);
    fs.rmSync(site.dataDir, { recursive: true, force: true });
  }
}

describe("account deletion under kill -9", () => {
  it("SQLite: no account is left alive with its files gone", async () => {
    const counts = await deleteUnderKill({}, async (dataDir) => {
      const { db } = openDatabase({ dataDir });
      try {
        const users = await db.selectFrom("user").select("id").execute();
        const objects = await db.selectFrom("storage_objects").select(["path", "blob_key"]).execute();
        return { users: new Set(users.map((row) => row.id)), objects };
      } finally {
        await db.destroy();
      }
    });
    console.info(JSON.stringify({ database: "sqlite", ...counts }));
    expect(counts.aliveWithFilesGone).toBe(0);
    expect(counts.deleted + counts.whole).toBe(accountCount);
    expect(counts.deleted).toBeGreaterThanOrEqual(counts.acknowledged);
  });

  it.skipIf(!inject("postgresUrl"))("PostgreSQL: no account is left alive with its files gone", async () => {
    const admin = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", max: 1 });
    const database = `deletion_${randomBytes(5).toString("hex")}`;
    await admin.query(`create database ${database}`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
    const databaseUrl = `postgres://${url.username}@${url.host}/${database}`;
    try {
      const counts = await deleteUnderKill({ DATABASE_URL: databaseUrl }, async () => {
        const reader = new pg.Client({ connectionString: databaseUrl });
        await reader.connect();
        try {
          const users = await reader.query<{ id: string }>(`select id from "user"`);
          const objects = await reader.query<{ path: string; blob_key: string }>("select path, blob_key from storage_objects");
          return { users: new Set(users.rows.map((row) => row.id)), objects: objects.rows };
        } finally {
          await reader.end();
        }
      });
      console.info(JSON.stringify({ database: "postgres", ...counts }));
      expect(counts.aliveWithFilesGone).toBe(0);
      expect(counts.deleted + counts.whole).toBe(accountCount);
      expect(counts.deleted).toBeGreaterThanOrEqual(counts.acknowledged);
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  });
});
