import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import { describe, expect, inject, it } from "vitest";
import { startSharedInstances } from "~tests/helpers/cluster";
import { siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * Anonymous renders of database pages are served from the page cache (decision 702): the same bytes for every
 * anonymous visitor, a CSP of the page's own script hashes, fresh renders for signed-in visitors, and a write
 * that drops the cache here and, through Redis, on the other instance.
 */
// A long lifetime: anything fresh the test sees came from an invalidation, never from expiry.
const longLived = { PAGE_CACHE_SECONDS: "600", RATE_LIMIT_GUEST_PER_IP: "1000/60" };
const app = { client_id: "app", client_name: "App", redirect_uris: ["tw.example.app:/callback"], public: true, first_party: true };

const get = (site: SiteProcess, path: string, cookie?: string) => fetch(`${site.baseURL}${path}`, { headers: cookie ? { cookie } : {} });

async function guest(site: SiteProcess): Promise<string> {
  const answer = await fetch(`${site.baseURL}/api/auth/sign-in/anonymous`, { method: "POST", headers: { origin: siteUrl, "content-type": "application/json" }, body: "{}" });
  expect(answer.status).toBe(200);
  return answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}

/** A form post as the browser sends it: to the site's own address (Host and Origin both SITE_URL's). */
function makeWish(site: SiteProcess, cookie: string, title: string): Promise<void> {
  const body = new URLSearchParams({ intent: "create", title, body: "" }).toString();
  const headers = { host: new URL(siteUrl).host, origin: siteUrl, cookie, "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${site.baseURL}/wishing-well`, { method: "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => (response.statusCode === 302 || response.statusCode === 303 ? resolve() : reject(new Error(`wish not made: ${response.statusCode}`))));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const sha256 = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

describe("the anonymous page cache", () => {
  it("serves anonymous visitors one cached render whose CSP names its inline scripts, and signed-in visitors fresh ones", async () => {
    const site = await startSite({ ...longLived, OIDC_CLIENTS: JSON.stringify([app]) });
    try {
      const first = await get(site, "/wishing-well");
      const firstHtml = await first.text();
      expect(first.headers.get("x-page-cache")).toBe("miss");
      const second = await get(site, "/wishing-well");
      const html = await second.text();
      expect(second.status).toBe(200);
      expect(second.headers.get("x-page-cache")).toBe("hit");
      expect(html).toBe(firstHtml);
      // The security headers still come on top; the CSP names hashes, no nonce.
      expect(second.headers.get("x-content-type-options")).toBe("nosniff");
      const policy = second.headers.get("content-security-policy") ?? "";
      expect(policy).not.toContain("'nonce-");
      const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter(([, attributes = ""]) => !/\ssrc=/.test(attributes) && !/type="application\/(ld\+)?json"/.test(attributes));
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, , body = ""] of scripts) expect(policy).toContain(`'${sha256(body)}'`);
      for (const [, , body = ""] of html.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style>/g)) expect(policy).toContain(`'${sha256(body)}'`);

      // Signed in (a guest): never the visitors' page, but the guest's own (their template filled in and kept for
      // them, decision 714), whose policy names its own scripts' hashes.
      const cookie = await guest(site);
      const own = await get(site, "/wishing-well", cookie);
      expect(own.headers.get("x-page-cache")).toBeNull();
      const ownHtml = await own.text();
      expect(ownHtml).not.toBe(html);
      const ownPolicy = own.headers.get("content-security-policy") ?? "";
      const ownScripts = [...ownHtml.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter(([, attributes = ""]) => !/\ssrc=/.test(attributes) && !/type="application\/(ld\+)?json"/.test(attributes));
      expect(ownScripts.length).toBeGreaterThan(0);
      for (const [, , body = ""] of ownScripts) expect(ownPolicy).toContain(`'${sha256(body)}'`);
      expect(ownPolicy).not.toBe(policy);
      // Unknown query parameters are never cached (they would let anyone fill the cache).
      expect((await get(site, `/wishing-well?x=${randomUUID()}`)).headers.get("x-page-cache")).toBeNull();
      // The app's OpenID endpoints change nothing those pages show: a successful revocation keeps the cache.
      const revocation = new URLSearchParams({ token: randomUUID(), client_id: app.client_id });
      const revoked = await fetch(`${site.baseURL}/oidc/token/revocation`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: revocation });
      expect(revoked.status).toBe(200);
      expect((await get(site, "/wishing-well")).headers.get("x-page-cache")).toBe("hit");

      // A write drops the cache: the next anonymous visit shows the new wish.
      const title = `快取測試 ${randomUUID().slice(0, 8)}`;
      expect(html).not.toContain(title);
      await makeWish(site, cookie, title);
      const after = await get(site, "/wishing-well");
      expect(after.headers.get("x-page-cache")).toBe("miss");
      expect(await after.text()).toContain(title);
      expect(site.output()).not.toContain("ERR_HTTP_HEADERS_SENT");
    } finally {
      await site.stop();
    }
  });

  describe.skipIf(!inject("postgresUrl"))("across instances", () => {
    it("a write on one instance drops the other's cached page through Redis", async () => {
      const shared = await startSharedInstances({ label: "page_cache", env: longLived });
      const [a, b] = shared.instances as [SiteProcess, SiteProcess];
      try {
        await (await get(b, "/wishing-well")).text();
        expect((await get(b, "/wishing-well")).headers.get("x-page-cache")).toBe("hit");
        const title = `跨站快取 ${randomUUID().slice(0, 8)}`;
        await makeWish(a, await guest(a), title);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const after = await get(b, "/wishing-well");
        expect(after.headers.get("x-page-cache")).toBe("miss");
        expect(await after.text()).toContain(title);
      } finally {
        await shared.stop();
      }
    });
  });
});
