import { randomBytes, randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { consentNoticeVersion } from "~/features/family/family-rules";
import { multipart } from "~tests/integration/storage-fixtures";
import { postForm, postJson, siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * One client address for every route that limits by address (issue 38.3, ASVS 16.2.1), on the built site behind a
 * trusted proxy (loopback, as the deploy recipe's nginx): every request claims a new address in each forwarding
 * header a client can set, yet the limit counts the one address the proxy's X-Forwarded-For carries, and another
 * real address is not limited; and a parent's consent to a child's record keeps the real address. The sign-in
 * layer's limits, its records and /device are driven the same way in tests/integration/client-address.test.ts.
 */

let claims = 0;
/** Every forwarding header a client can set, each claiming a fresh address, beside the proxy's real one. */
function from(realAddress: string): Record<string, string> {
  claims += 1;
  const claimed = `203.0.113.${(claims % 250) + 1}`;
  return {
    "x-forwarded-for": realAddress,
    "x-client-ip": claimed,
    "x-real-ip": claimed,
    "true-client-ip": claimed,
    "cf-connecting-ip": claimed,
    forwarded: `for=${claimed}`,
  };
}

/** A fresh address for each check, so no check spends another's allowance. */
const realAddress = () => `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** `attempts` requests from one real address, then one from another: the statuses of each. */
async function statusesFrom(attempts: number, send: (headers: Record<string, string>) => Promise<{ status: number; arrayBuffer?: () => Promise<ArrayBuffer> }>) {
  const address = realAddress();
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const answer = await send(from(address));
    statuses.push(answer.status);
    await answer.arrayBuffer?.();
  }
  const elsewhere = await send(from(realAddress()));
  await elsewhere.arrayBuffer?.();
  return { statuses, elsewhere: elsewhere.status };
}

const statusOf = async (answer: Promise<{ status: number }>) => (await answer).status;

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

/**
 * A form post as a browser on SITE_URL sends it (React Router's own CSRF check wants Origin and Host to agree):
 * fetch cannot set Host, node:http can. Resolves with the status.
 */
describe("the client's address on the built site's own limits", () => {
  let site: SiteProcess;
  beforeAll(async () => {
    site = await startSite({
      TRUSTED_PROXIES: "127.0.0.1,::1",
      RATE_LIMIT_ANALYTICS_PER_IP: "3/60",
      RATE_LIMIT_STORAGE_WRITES_PER_IP: "2/60",
      RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: "1000/60",
      RATE_LIMIT_SIGN_UP_PER_IP: "1000/60",
      RATE_LIMIT_GUEST_PER_IP: "1000/60",
      RATE_LIMIT_AUTH_PER_IP: "1000/60",
    });
  });
  afterAll(async () => {
    await site.stop();
  });

  it("analytics: the fourth batch from one address is refused, whatever it claims", async () => {
    const batch = { events: [{ name: "page_view", params: { page_path: "/", page_title: "首頁", page_location: `${siteUrl}/` } }] };
    const { statuses, elsewhere } = await statusesFrom(4, (headers) => postJson(site.baseURL, "/api/analytics", batch, headers));
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(elsewhere).toBe(202);
  });

  it("CSP reports: the 31st in a minute from one address is refused, whatever it claims", async () => {
    const report = { "csp-report": { "document-uri": `${siteUrl}/`, "effective-directive": "script-src-elem", "blocked-uri": "inline" } };
    const { statuses, elsewhere } = await statusesFrom(31, (headers) => postJson(site.baseURL, "/api/csp-report", report, headers));
    expect(statuses).toEqual([...Array<number>(30).fill(204), 429]);
    expect(elsewhere).toBe(204);
  });

  it("file uploads: the third write from one address is refused, whatever it claims", async () => {
    const signUp = await postJson(site.baseURL, "/api/auth/sign-up/email", { email: `address-${randomUUID()}@example.tw`, password: "kite-river-7", name: "家長" });
    expect(signUp.status).toBe(200);
    const { user } = (await signUp.json()) as { user: { id: string } };
    const cookie = cookieOf(signUp);
    const image = await sharp(randomBytes(16 * 16 * 3), { raw: { width: 16, height: 16, channels: 3 } }).png().toBuffer();
    let index = 0;
    const { statuses, elsewhere } = await statusesFrom(3, (headers) => {
      const objectPath = `users/${user.id}/photo-${(index += 1)}.png`;
      const { body, headers: form } = multipart(objectPath, image);
      return fetch(`${site.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
        method: "POST",
        headers: { ...form, ...headers, cookie, origin: siteUrl },
        body: new Uint8Array(body),
      });
    });
    expect(statuses).toEqual([200, 200, 429]);
    expect(elsewhere).toBe(200);
  });

  it("wishes: the 21st wish in an hour from one address is refused, whatever it claims, each from a new guest", async () => {
    const { statuses, elsewhere } = await statusesFrom(21, async (headers) => {
      const guest = await postJson(site.baseURL, "/api/auth/sign-in/anonymous", {}, headers);
      expect(guest.status).toBe(200);
      const wish = new URLSearchParams({ intent: "create", title: `希望可以匯出點數紀錄 ${randomUUID().slice(0, 6)}`, body: "" });
      return postForm(site, "/wishing-well", { ...headers, cookie: cookieOf(guest) }, wish);
    });
    expect(statuses).toEqual([...Array<number>(20).fill(303), 429]);
    expect(elsewhere).toBe(303);
  });

  it("family: the consent given for a child's record keeps the real address, whatever the request claims", async () => {
    const address = realAddress();
    const email = `consent-${randomUUID()}@example.tw`;
    const signUp = await postJson(site.baseURL, "/api/auth/sign-up/email", { email, password: "kite-river-7", name: "王媽媽" }, from(address));
    expect(signUp.status).toBe(200);
    const { user } = (await signUp.json()) as { user: { id: string } };
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      await db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
      const cookie = cookieOf(signUp);
      expect(await statusOf(postForm(site, "/account/family", { ...from(address), cookie }, new URLSearchParams({ intent: "create-family", name: "王家" })))).toBe(200);
      const child = new URLSearchParams({ intent: "add-child", name: "小明", avatar: "lion", birthYear: "2018", consent: "yes", noticeVersion: consentNoticeVersion });
      expect(await statusOf(postForm(site, "/account/family", { ...from(address), cookie }, child))).toBe(200);
      const consents = await db.selectFrom("family_consent").select("ip_address").where("parent_id", "=", user.id).execute();
      expect(consents).toEqual([{ ip_address: address }]);
    } finally {
      await db.destroy();
    }
  });
});
