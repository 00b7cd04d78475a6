import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSharedInstances, type SharedInstances } from "~tests/helpers/cluster";
import { siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * A refused family join never says 「你已加入家庭。」 (issue 38: an already-used invitation, a made-up token and the
 * losing side of a race all answered `303 …?done=joined`). Through the built site's invitation form, as a browser
 * without scripts posts it, on SQLite and on PostgreSQL: each refusal is the form's own status with its own
 * sentence saying the person did not join and what to do; only a join that happened goes to `?done=joined`.
 */
interface Answer {
  status: number;
  text: string;
  location: string | null;
}

/** One request to the instance, naming the site's own address (its forms check the Origin against it). */
function request(base: string, path: string, jar: Map<string, string>, options: { form?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { host: new URL(siteUrl).host };
  if (body) Object.assign(headers, { origin: siteUrl, "content-type": options.form ? "application/x-www-form-urlencoded" : "application/json", "content-length": String(Buffer.byteLength(body)) });
  if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ hostname, port, method: body ? "POST" : "GET", path, headers, agent: false }, (response) => {
      for (const line of response.headers["set-cookie"] ?? []) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), location: response.headers.location ?? null }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const joined = "你已加入家庭。";
const notJoined = "沒有加入";

function refusalsOnJoin(label: string, open: () => Promise<{ base: string; backdate(token: string): Promise<void>; stop(): Promise<void> }>) {
  describe(label, () => {
    let site: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      site = await open();
    }, 120_000);
    afterAll(async () => {
      await site?.stop();
    });

    async function parent() {
      const jar = new Map<string, string>();
      const email = `join-${randomUUID().slice(0, 8)}@example.tw`;
      const created = await request(site.base, "/api/auth/sign-up/email", jar, { json: { email, password: "tide-meadow-lantern-48", name: "家長" } });
      expect(created.status).toBe(200);
      return jar;
    }
    async function invitation(owner: Map<string, string>) {
      const made = await request(site.base, "/account/family", owner, { form: { intent: "invite", email: "" } });
      expect(made.status).toBe(200);
      const token = /family\/join\?token=([\w-]{43})/.exec(made.text)?.[1];
      expect(token).toBeTruthy();
      return token!;
    }
    const accept = (jar: Map<string, string>, token: string) => request(site.base, "/account/family/join", jar, { form: { token } });
    const familyPage = async (jar: Map<string, string>, location: string) => (await request(site.base, new URL(location, siteUrl).pathname + new URL(location, siteUrl).search, jar)).text;

    it("joins once, then refuses an already-used link, a made-up token and the loser of a race, each in its own words", async () => {
      const owner = await parent();
      expect((await request(site.base, "/account/family", owner, { form: { intent: "create-family", name: "王家" } })).status).toBe(200);

      // The join that happens: 303 to the family page, which says so.
      const token = await invitation(owner);
      const coParent = await parent();
      const first = await accept(coParent, token);
      expect(first.status).toBe(303);
      expect(first.location).toContain("done=joined");
      expect(await familyPage(coParent, first.location!)).toContain(joined);
      // The same person pressing again (a second tab) is in, as the first press said.
      expect((await accept(coParent, token)).location).toContain("done=joined");

      // The losing side of a race: two people accept one fresh link at once.
      const raced = await invitation(owner);
      const [left, right] = [await parent(), await parent()];
      const race = await Promise.all([accept(left, raced), accept(right, raced)]);
      expect(race.map((answer) => answer.status).sort()).toEqual([303, 409]);
      const loser = race.find((answer) => answer.status === 409)!;
      expect(loser.location).toBeNull();
      expect(loser.text).toContain("就在剛才，另一個人先用這個邀請連結加入了家庭");
      expect(loser.text).toContain("請向家人要一個新的邀請連結");
      expect(loser.text).not.toContain(joined);

      // An already-used link, used long ago.
      await site.backdate(token);
      const late = await accept(await parent(), token);
      expect(late.status).toBe(409);
      expect(late.location).toBeNull();
      expect(late.text).toContain("這個邀請連結已經有人用過了");
      expect(late.text).toContain(notJoined);
      expect(late.text).not.toContain(joined);

      // A made-up token.
      const madeUp = await accept(await parent(), "x".repeat(43));
      expect(madeUp.status).toBe(404);
      expect(madeUp.location).toBeNull();
      expect(madeUp.text).toContain("找不到這個邀請連結");
      expect(madeUp.text).toContain(notJoined);
      expect(madeUp.text).not.toContain(joined);
    }, 120_000);
  });
}

const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

refusalsOnJoin("refused family joins [sqlite]", async () => {
  const site: SiteProcess = await startSite({ RATE_LIMIT_AUTH_PER_IP: "1000000/60", RATE_LIMIT_SIGN_UP_PER_IP: "1000000/60" });
  return {
    base: site.baseURL,
    async backdate(token) {
      const file = new Database(`${site.dataDir}/app.db`);
      try {
        file.prepare("update family_invitation set accepted_at = ? where token_hash = ?").run(hourAgo(), hashOf(token));
      } finally {
        file.close();
      }
    },
    stop: async () => void (await site.stop()),
  };
});

if (inject("postgresUrl")) {
  refusalsOnJoin("refused family joins [postgres]", async () => {
    const shared: SharedInstances = await startSharedInstances({
      label: "family_join",
      count: 1,
      env: { RATE_LIMIT_AUTH_PER_IP: "1000000/60", RATE_LIMIT_SIGN_UP_PER_IP: "1000000/60" },
    });
    const site = shared.instances[0]!;
    const { databaseUrl } = shared;
    return {
      base: site.baseURL,
      async backdate(token) {
        const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
        try {
          await pool.query("update family_invitation set accepted_at = $1 where token_hash = $2", [hourAgo(), hashOf(token)]);
        } finally {
          await pool.end();
        }
      },
      stop: () => shared.stop(),
    };
  });
}
