import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { postJson, siteUrl, startSite } from "./site-process";

/**
 * The built site on SQLite under load: account deletion while others sign up, a kill -9 in the middle of
 * sign-ups and analytics writes, and SIGTERM while keep-alive clients keep asking.
 */
const password = "fault-test-password-1";
const generousLimits = {
  RATE_LIMIT_SIGN_UP_PER_IP: "100000/60",
  RATE_LIMIT_AUTH_PER_IP: "100000/60",
  RATE_LIMIT_ANALYTICS_PER_IP: "100000/60",
};

const cookieOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");

describe("SQLite under load", () => {
  it("deletes accounts during a sign-up load without a single 5xx", async () => {
    const site = await startSite(generousLimits);
    try {
      const doomed = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const response = await postJson(site.baseURL, "/api/auth/sign-up/email", { email: `doomed-${randomUUID()}@example.tw`, password, name: "家長" });
          expect(response.status).toBe(200);
          return cookieOf(response);
        }),
      );
      const signUps = Array.from({ length: 40 }, (_, index) =>
        new Promise((resolve) => setTimeout(resolve, index * 10)).then(() =>
          postJson(site.baseURL, "/api/auth/sign-up/email", { email: `load-${randomUUID()}@example.tw`, password, name: "家長" }),
        ),
      );
      const deletions = doomed.map((cookie, index) =>
        new Promise((resolve) => setTimeout(resolve, index * 40)).then(() => postJson(site.baseURL, "/api/auth/delete-user", { password }, { cookie })),
      );
      const answers = await Promise.all([...signUps, ...deletions]);
      expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.status)).toEqual([]);
      expect((await Promise.all(deletions)).map((answer) => answer.status)).toEqual(doomed.map(() => 200));
    } finally {
      expect((await site.stop()).code).toBe(0);
    }
  });

  it("keeps every acknowledged sign-up, its verification mail and every acknowledged analytics batch through kill -9", async () => {
    const site = await startSite(generousLimits);
    const acknowledged = { users: [] as string[], batches: [] as string[] };
    let killed = false;
    const worker = async (kind: "sign-up" | "analytics") => {
      while (!killed) {
        const marker = randomUUID();
        try {
          if (kind === "sign-up") {
            const email = `kill-${marker}@example.tw`;
            const response = await postJson(site.baseURL, "/api/auth/sign-up/email", { email, password, name: "家長" });
            if (response.status === 200) acknowledged.users.push(email);
          } else {
            const event = { name: "page_view", params: { page_path: `/k9/${marker}`, page_title: "測試", page_location: `${siteUrl}/k9/${marker}` } };
            const response = await postJson(site.baseURL, "/api/analytics", { events: [event] });
            if (response.status === 202) acknowledged.batches.push(`/k9/${marker}`);
          }
        } catch {
          // The server is gone: what it acknowledged before is what counts.
        }
      }
    };
    const workers = [...Array.from({ length: 4 }, () => worker("sign-up")), ...Array.from({ length: 4 }, () => worker("analytics"))];
    // Killed in the middle of the load, once it has acknowledged a fair amount (this machine may be busy).
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (acknowledged.users.length < 5 || acknowledged.batches.length < 20)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await site.stop("SIGKILL");
    killed = true;
    await Promise.all(workers);
    expect(acknowledged.users.length).toBeGreaterThanOrEqual(5);
    expect(acknowledged.batches.length).toBeGreaterThanOrEqual(20);

    const restarted = await startSite(generousLimits, { dataDir: site.dataDir });
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      const users = new Set((await db.selectFrom("user").select("email").execute()).map((row) => row.email));
      expect(acknowledged.users.filter((email) => !users.has(email))).toEqual([]);
      const outbox = await db.selectFrom("mail_outbox").select(["recipient", "sent_at", "failed_at"]).execute();
      const mailed = new Set(outbox.map((row) => row.recipient));
      expect(acknowledged.users.filter((email) => !mailed.has(email))).toEqual([]);
      expect(outbox.filter((row) => row.failed_at)).toEqual([]);
      const events = await db.selectFrom("analytics_events").select("params").execute();
      const paths = new Set(events.map((row) => (JSON.parse(row.params) as { page_path: string }).page_path));
      expect(acknowledged.batches.filter((path) => !paths.has(path))).toEqual([]);

      // After the restart nothing is stuck: a row is delivered, or it was taken by the killed sender and its
      // lease (60 s) ends soon, when the new sender takes it — it is never failed or forgotten.
      const killedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const after = await db.selectFrom("mail_outbox").select(["sent_at", "failed_at", "next_attempt_at"]).execute();
      for (const row of after) {
        expect(row.failed_at).toBeNull();
        if (!row.sent_at) expect(Date.parse(row.next_attempt_at)).toBeLessThanOrEqual(killedAt + 60_000);
      }
    } finally {
      await db.destroy();
      expect((await restarted.stop()).code).toBe(0);
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });

  it("stops on SIGTERM under keep-alive load: exit 0 within the deadline, answers finished", async () => {
    const site = await startSite({ ...generousLimits, SHUTDOWN_TIMEOUT_MS: "10000" });
    let stopping = false;
    const statuses: number[] = [];
    const client = async () => {
      // fetch keeps its connections alive between requests.
      for (let count = 0; count < 10_000; count += 1) {
        try {
          const response = await fetch(`${site.baseURL}/api/auth/get-session`, { headers: { origin: siteUrl } });
          await response.arrayBuffer();
          statuses.push(response.status);
        } catch {
          if (stopping) return; // refused once the server stopped listening
          throw new Error("a request failed before shutdown");
        }
        if (stopping && count > 0 && site.child.exitCode !== null) return;
      }
    };
    const clients = Array.from({ length: 20 }, client);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    stopping = true;
    const { code, ms } = await site.stop("SIGTERM");
    await Promise.all(clients);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
