import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { multipart } from "~tests/integration/storage-fixtures";
import { postJson, siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * File storage against its disk, on the built site: DATA_DIR on a small file system of its own (a tmpfs,
 * mounted here: the test command runs as root in CI) filled by uploads and then by something else; and kill -9
 * in the middle of uploads, after which the sweeper must leave no orphaned bytes and no temporary files.
 */
const password = "fault-test-password-1";
const generous = {
  RATE_LIMIT_SIGN_UP_PER_IP: "100000/60",
  RATE_LIMIT_AUTH_PER_IP: "100000/60",
  RATE_LIMIT_ANALYTICS_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_IP: "100000/60",
  RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: "100000/60",
  STORAGE_USER_QUOTA_BYTES: String(1024 * 1024 * 1024),
};
const megabyte = 1024 * 1024;

/** A tmpfs of `sizeMb` at a fresh folder; unmounted by the returned function. */
function smallDisk(sizeMb: number): { dir: string; release(): void } {
  if (process.getuid?.() !== 0) {
    throw new Error("This test mounts a small tmpfs and needs root (the test command runs as root in CI).");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-small-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m`, "tmpfs", dir]);
  return {
    dir,
    release: () => {
      execFileSync("umount", ["-l", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes zeros to `file` until the disk has not one byte left. */
function fillUp(file: string) {
  const descriptor = fs.openSync(file, "w");
  try {
    for (const size of [megabyte, 64 * 1024, 4096, 512, 1]) {
      try {
        for (;;) fs.writeSync(descriptor, Buffer.alloc(size));
      } catch {
        // ENOSPC at this size: go on with smaller pieces
      }
    }
  } finally {
    fs.closeSync(descriptor);
  }
}

const freeBytes = (dir: string) => {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/** Random pixels: about 3 bytes a pixel as PNG, before and after re-encoding. */
const noise = (side: number) => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();

async function signUp(site: SiteProcess) {
  const response = await postJson(site.baseURL, "/api/auth/sign-up/email", { email: `disk-${randomUUID()}@example.tw`, password, name: "家長" });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  return { uid: body.user.id, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") };
}

async function upload(site: SiteProcess, who: { uid: string; cookie: string }, name: string, bytes: Buffer) {
  const objectPath = `users/${who.uid}/${name}`;
  const { body, headers } = multipart(objectPath, bytes);
  const response = await fetch(`${site.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
    method: "POST",
    headers: { ...headers, cookie: who.cookie, origin: siteUrl },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: (await response.json()) as { name?: string; error?: { reason: string; detail?: string } } };
}

const remove = (site: SiteProcess, who: { cookie: string }, objectPath: string) =>
  fetch(`${site.baseURL}/v0/b/default/o/${encodeURIComponent(objectPath)}`, { method: "DELETE", headers: { cookie: who.cookie, origin: siteUrl } });

const analytics = (site: SiteProcess) =>
  postJson(site.baseURL, "/api/analytics", {
    events: [{ name: "page_view", params: { page_path: "/disk", page_title: "測試", page_location: `${siteUrl}/disk` } }],
  });

const readiness = async (site: SiteProcess) => {
  const response = await fetch(`${site.baseURL}/readyz`);
  return { status: response.status, body: (await response.json()) as { disk: string; diskFreeBytes: number } };
};

/** Temporary files of the local driver left anywhere under DATA_DIR/storage. */
const temporaries = (dataDir: string) =>
  fs.existsSync(path.join(dataDir, "storage"))
    ? fs.readdirSync(path.join(dataDir, "storage"), { recursive: true }).map(String).filter((name) => name.endsWith(".tmp"))
    : [];

describe("file storage and its disk", () => {
  it("stops uploads at the free-space floor with the protocol's quota-exceeded; deletions, sign-ups and analytics go on, even on a full disk", async () => {
    const disk = smallDisk(40);
    let site: SiteProcess | undefined;
    try {
      site = await startSite({ ...generous, STORAGE_MIN_FREE_BYTES: String(12 * megabyte) }, { dataDir: disk.dir });
      const owner = await signUp(site);
      const image = await noise(700);
      const statuses: number[] = [];
      const stored: string[] = [];
      for (let index = 0; index < 40 && !statuses.includes(402); index++) {
        const answer = await upload(site, owner, `photo-${index}.png`, image);
        statuses.push(answer.status);
        if (answer.status === 200) stored.push(answer.body.name!);
        else expect(answer.body.error).toMatchObject({ reason: "storage/quota-exceeded", detail: "storage-full" });
      }
      expect(statuses.filter((status) => status !== 200 && status !== 402)).toEqual([]);
      expect(statuses.at(-1)).toBe(402);
      expect(stored.length).toBeGreaterThan(5);
      // The floor held: the database still has its room.
      expect(freeBytes(disk.dir)).toBeGreaterThan(12 * megabyte - image.length);
      expect(await readiness(site)).toMatchObject({ status: 200, body: { disk: "low" } });
      expect((await signUp(site)).uid).toBeTruthy();
      expect((await analytics(site)).status).toBe(202);
      expect((await remove(site, owner, stored.pop()!)).status).toBe(204);

      // Now something else fills the disk to the last byte.
      fillUp(path.join(disk.dir, "filler"));
      expect(freeBytes(disk.dir)).toBeLessThan(4096);
      const refused = await upload(site, owner, "one-more.png", image);
      expect([refused.status, refused.body.error?.detail]).toEqual([402, "storage-full"]);
      expect(await readiness(site)).toMatchObject({ status: 503, body: { disk: "full" } });
      const freeing = await remove(site, owner, stored.pop()!);
      expect(freeing.status).toBe(204);
      const signUpWhenFull = await postJson(site.baseURL, "/api/auth/sign-up/email", { email: `full-${randomUUID()}@example.tw`, password, name: "家長" });
      expect(signUpWhenFull.status).toBe(200);
      expect((await analytics(site)).status).toBe(202);
      expect((await site.stop()).code).toBe(0);

      // Without the floor (and the reserve), the write itself meets the full disk: still 402, and no partial file is left.
      site = await startSite({ ...generous, STORAGE_MIN_FREE_BYTES: "0", STORAGE_DISK_RESERVE_BYTES: "0" }, { dataDir: disk.dir });
      fillUp(path.join(disk.dir, "filler-2"));
      const direct = await upload(site, owner, "direct.png", image);
      expect([direct.status, direct.body.error?.detail]).toEqual([402, "storage-full"]);
      expect(temporaries(disk.dir)).toEqual([]);
      expect(site.output()).not.toMatch(/"status":500/);
    } finally {
      await site?.stop();
      disk.release();
    }
  });

  it("leaves no orphaned bytes and no temporary files after kill -9 during parallel uploads to one name", async () => {
    const sweepSoon = { ...generous, STORAGE_ORPHAN_GRACE_SECONDS: "0" };
    const site = await startSite(sweepSoon);
    const owner = await signUp(site);
    const images = await Promise.all(Array.from({ length: 6 }, () => noise(300)));
    let killed = false;
    const worker = async (image: Buffer) => {
      while (!killed) {
        await upload(site, owner, "contended.png", image).catch(() => undefined);
      }
    };
    const workers = images.map(worker);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await site.stop("SIGKILL");
    killed = true;
    await Promise.all(workers);

    const restarted = await startSite(sweepSoon, { dataDir: site.dataDir });
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      const objects = path.join(site.dataDir, "storage", "objects");
      const unreferenced = async () => {
        const keys = new Set((await db.selectFrom("storage_objects").select("blob_key").execute()).map((row) => row.blob_key));
        return fs.readdirSync(objects).filter((name) => !keys.has(`objects/${name}`));
      };
      // The sweeper's first pass runs a few seconds after start-up.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && ((await unreferenced()).length > 0 || temporaries(site.dataDir).length > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(await unreferenced()).toEqual([]);
      expect(temporaries(site.dataDir)).toEqual([]);
      expect(fs.readdirSync(objects)).toHaveLength(1);
    } finally {
      await db.destroy();
      expect((await restarted.stop()).code).toBe(0);
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });

  it("never leaves a file whose bytes are gone after kill -9 during account deletions", async () => {
    const site = await startSite(generous);
    const accounts = await Promise.all(Array.from({ length: 8 }, () => signUp(site)));
    const image = await noise(64);
    for (const account of accounts) {
      const answers = await Promise.all(Array.from({ length: 5 }, (_, index) => upload(site, account, `f-${index}.png`, image)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    }
    const deletions = accounts.map((account, index) =>
      new Promise((resolve) => setTimeout(resolve, index * 15))
        .then(() => postJson(site.baseURL, "/api/auth/delete-user", { password }, { cookie: account.cookie }))
        .catch(() => undefined),
    );
    // Killed as the first deletion is answered, while the others run.
    await Promise.race(deletions);
    await site.stop("SIGKILL");
    await Promise.all(deletions);

    const restarted = await startSite(generous, { dataDir: site.dataDir });
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      const rows = await db.selectFrom("storage_objects").select(["path", "blob_key"]).execute();
      const missing = rows.filter((row) => !fs.existsSync(path.join(site.dataDir, "storage", ...row.blob_key.split("/"))));
      expect(missing).toEqual([]);
      // Whatever survived is whole through the API too.
      const survivor = accounts.find((account) => rows.some((row) => row.path.startsWith(`users/${account.uid}/`)));
      if (survivor) {
        const objectPath = rows.find((row) => row.path.startsWith(`users/${survivor.uid}/`))!.path;
        const read = await fetch(`${restarted.baseURL}/v0/b/default/o/${encodeURIComponent(objectPath)}?alt=media`, { headers: { cookie: survivor.cookie } });
        expect(read.status).toBe(200);
      }
    } finally {
      await db.destroy();
      expect((await restarted.stop()).code).toBe(0);
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});
