import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { inlineHashes } from "~/features/security/csp.server";
import { freePorts, postForm, siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * A prerendered page asked for by a signed-in parent is its template filled in with their user
 * (app/features/shell/signed-in-pages.server.ts). The same address with a query string is rendered whole, as
 * before: both must be the same bytes but for the nonce, for a parent, a guest, and a name full of what needs escaping.
 * On SQLite the filled page is answered in front of the middleware chain (server/signed-in-pages.ts, decision 712);
 * with MEMORY_ANSWERS=off, as on PostgreSQL, by the chain's own layer: both starts are held to the whole render.
 * The wishing well's board is filled in from a template per shape and marks (which wishes they voted for and made,
 * decision 713), in front of the chain too once its template is made, and held to the whole render the same way.
 */
describe.each([
  { path: "in front of the middleware chain", memoryAnswers: "on" },
  { path: "by the middleware chain", memoryAnswers: "off" },
])("prerendered pages for a signed-in parent, $path", ({ memoryAnswers }) => {
  let site: SiteProcess;
  let metricsPort = 0;

  beforeAll(async () => {
    [metricsPort] = (await freePorts(1)) as [number];
    site = await startSite({ METRICS_PORT: String(metricsPort), MEMORY_ANSWERS: memoryAnswers });
    const deadline = Date.now() + 60_000;
    while (!site.output().includes('"event":"start"')) {
      if (Date.now() > deadline) throw new Error(`no start line within 60 s:\n${site.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await site.stop();
  });

  const cookieOf = (answer: Response) => answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const post = (path: string, body: unknown) =>
    fetch(`${site.baseURL}/api/auth${path}`, { method: "POST", headers: { origin: siteUrl, "content-type": "application/json" }, body: JSON.stringify(body) });

  async function parent(email: string, name: string): Promise<string> {
    const answer = await post("/sign-up/email", { email, password: "a-long-password-for-tests-1", name });
    expect(answer.status).toBe(200);
    return cookieOf(answer);
  }

  async function guest(): Promise<string> {
    const answer = await post("/sign-in/anonymous", {});
    expect(answer.status).toBe(200);
    return cookieOf(answer);
  }

  async function metrics(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  }

  /** How many signed-in pages were filled in from a template by this start's layer (or `layer`), and how many rendered whole. */
  async function signedInCounts(layer = memoryAnswers === "on" ? "up-front" : "chain"): Promise<{ filled: number; rendered: number }> {
    const text = await metrics();
    const count = (result: string, layer: string) => Number(new RegExp(`^site_signed_in_pages_total\\{result="${result}",layer="${layer}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { filled: count("filled", layer), rendered: count("rendered", "chain") };
  }

  /**
   * The page as the parent gets it: its HTML with its nonce taken out, its headers but those of one answer alone, its
   * policy without its script and style sources, and its cache policy. A page rendered for the answer carries the
   * policy's nonce on every script and style; a parent's kept page (decision 714) carries one nonce no policy names,
   * and its policy names exactly the hashes of its inline scripts, and its inline styles' among the start-up pages'.
   */
  async function page(path: string, cookie: string, headers: Record<string, string> = {}) {
    const answer = await fetch(`${site.baseURL}${path}`, { headers: { cookie, ...headers } });
    expect(answer.status, path).toBe(200);
    const html = await answer.text();
    const policy = answer.headers.get("content-security-policy") ?? "";
    const used = new Set([...html.matchAll(/ nonce="([^"]*)"/g)].map(([, nonce]) => nonce!));
    expect(used.size, path).toBe(1);
    const [nonce] = used as Set<string> & [string];
    const policyNonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    if (policyNonce) expect(nonce, path).toBe(policyNonce);
    else {
      const hashes = inlineHashes(html);
      expect(/script-src ([^;]*) 'strict-dynamic'/.exec(policy)?.[1]?.split(" ").toSorted(), path).toEqual(hashes.scripts.map((hash) => `'${hash}'`).toSorted());
      for (const hash of hashes.styles) expect(/style-src [^;]*/.exec(policy)?.[0], path).toContain(`'${hash}'`);
    }
    // The headers but those of one answer alone: its time, its id, and its framing (a length, or chunks for a
    // render streamed as it is made); the policy apart.
    const fields = [...answer.headers].filter(([name]) => !["date", "x-request-id", "content-length", "transfer-encoding", "content-security-policy"].includes(name));
    return {
      html: html.replaceAll(nonce, "NONCE"),
      fields,
      policy: policy.replaceAll(/ '(nonce|sha256)-[^']+'/g, ""),
      kept: !policyNonce,
      cacheControl: answer.headers.get("cache-control"),
      requestId: answer.headers.get("x-request-id"),
    };
  }

  it("are the whole render's bytes, for a parent with a name that needs escaping and for a guest", async () => {
    const cookies = [await parent("escaping@example.tw", `王<小明>&"'\\ 🐉`), await parent("plain@example.tw", "林大華"), await guest()];
    const before = await signedInCounts();
    for (const cookie of cookies) {
      for (const [path, encoding] of [["/", "gzip, deflate, br"], ["/features", "br"], ["/pricing", "gzip"], ["/faq", "identity"]] as const) {
        const filled = await page(path, cookie, { "accept-encoding": encoding });
        const whole = await page(`${path}?whole=1`, cookie, { "accept-encoding": encoding });
        expect(filled.html, path).toBe(whole.html);
        expect(filled.fields, path).toEqual(whole.fields);
        expect(filled.policy, path).toBe(whole.policy);
        expect([filled.kept, whole.kept], path).toEqual([true, false]);
        expect(filled.cacheControl).toBe("private, no-cache");
        expect(filled.html).not.toContain("zqx");
      }
    }
    // Every page without a query string was filled in (the query's went to React Router whole, uncounted).
    const after = await signedInCounts();
    expect(after.filled - before.filled).toBe(cookies.length * 4);
    expect(after.rendered).toBe(before.rendered);
  });

  it("are kept per parent: the same bytes when loaded again, smaller once compressed whole, and a new name at once", async () => {
    const cookie = await parent("again@example.tw", "改名前的媽媽");
    const first = await fetch(`${site.baseURL}/pricing`, { headers: { cookie, "accept-encoding": "gzip" } });
    const firstHtml = await first.text();
    const policy = first.headers.get("content-security-policy");
    expect(firstHtml).toContain("改名前的媽媽");
    // The second answer is the first one's bytes, and has the whole page compressed behind it for the next ones.
    let smaller = false;
    for (let tries = 0; tries < 20 && !smaller; tries += 1) {
      const again = await fetch(`${site.baseURL}/pricing`, { headers: { cookie, "accept-encoding": "gzip" } });
      expect(await again.text()).toBe(firstHtml);
      expect(again.headers.get("content-security-policy")).toBe(policy);
      smaller = Number(again.headers.get("content-length")) < Number(first.headers.get("content-length"));
      if (!smaller) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(smaller).toBe(true);
    const named = await fetch(`${site.baseURL}/api/auth/update-user`, { method: "POST", headers: { cookie, origin: siteUrl, "content-type": "application/json" }, body: JSON.stringify({ name: "改名後的媽媽" }) });
    expect(named.status).toBe(200);
    const filled = await page("/pricing", cookie, { "accept-encoding": "gzip" });
    const whole = await page("/pricing?whole=1", cookie, { "accept-encoding": "gzip" });
    expect(filled.html).toContain("改名後的媽媽");
    expect(filled.html).not.toContain("改名前的媽媽");
    expect(filled.html).toBe(whole.html);
    expect(filled.kept).toBe(true);
  });

  it("fill in the wishing well's board with the parent's own votes and wishes, as the whole render shows them", async () => {
    const [voter, author] = [await parent("voter@example.tw", "投票的<媽媽>"), await parent("author@example.tw", "許願的爸爸")];
    const visitor = await guest();
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      await db.updateTable("user").set({ emailVerified: 1 }).where("email", "in", ["voter@example.tw", "author@example.tw"]).execute();
    } finally {
      await db.destroy();
    }
    const wish = async (cookie: string, title: string) => {
      const made = await postForm(site, "/wishing-well", { cookie }, new URLSearchParams({ intent: "create", title, body: "" }));
      expect(made.status).toBe(303);
      return made.location!;
    };
    const vote = async (cookie: string, wishPath: string, vote: "add" | "remove") =>
      expect((await postForm(site, wishPath, { cookie }, new URLSearchParams({ intent: "vote", vote }))).status).toBe(303);
    const theirs = await wish(author, "希望可以替每個孩子設定不同的獎勵");
    await wish(voter, "希望有深色模式");
    await vote(voter, theirs, "add");

    const board = async (cookie: string, path: string, encoding: string) => {
      const filled = await page(path, cookie, { "accept-encoding": encoding });
      const whole = await page(`${path}${path.includes("?") ? "&" : "?"}whole=1`, cookie, { "accept-encoding": encoding });
      expect(filled.html, path).toBe(whole.html);
      expect(filled.fields, path).toEqual(whole.fields);
      expect(filled.policy, path).toBe(whole.policy);
      expect([filled.kept, whole.kept], path).toEqual([true, false]);
      expect(filled.html).not.toContain("zqx");
      return filled.html;
    };
    const filledByBoth = async () => (await signedInCounts("chain")).filled + (await signedInCounts("up-front")).filled;
    const before = await filledByBoth();
    for (const round of [1, 2]) {
      for (const [path, encoding] of [["/wishing-well", "gzip"], ["/wishing-well?order=votes", "identity"]] as const) {
        const voterSees = await board(voter, path, encoding);
        expect(voterSees, `round ${round}`).toContain('aria-pressed="true"');
        expect(voterSees).toContain("你的願望");
        expect(voterSees).toContain("投票的&lt;媽媽&gt;");
        const authorSees = await board(author, path, encoding);
        expect(authorSees).toContain('aria-pressed="false"');
        expect(authorSees).not.toContain('aria-pressed="true"');
        expect(authorSees).toContain("許願的爸爸");
        const guestSees = await board(visitor, path, encoding);
        expect(guestSees).not.toContain('aria-pressed="');
        expect(guestSees).toContain("就能投票");
      }
    }
    // Every board without `whole` was filled in; a search is rendered whole.
    const after = await filledByBoth();
    expect(after - before).toBe(2 * 2 * 3);
    expect(await (await fetch(`${site.baseURL}/wishing-well?q=深色`, { headers: { cookie: voter } })).text()).toContain("希望有深色模式");
    // So is any spelling of the board's address but its own links' (each spelling would be a template of its own).
    for (const spelling of ["/wishing-well?order=newest", "/wishing-well?page=01", "/wishing-well?order=votes&", "/wishing-well?deleted"]) {
      expect((await fetch(`${site.baseURL}${spelling}`, { headers: { cookie: voter } })).status, spelling).toBe(200);
    }
    expect(await filledByBoth()).toBe(after);
    // On SQLite, once its template is made and the board loaded, the board without a query is answered in front
    // of the chain (a board loaded anew in between, every 5 s, goes through the chain once: three tries).
    if (memoryAnswers === "on") {
      let upFront = 0;
      for (let tries = 0; tries < 3 && !upFront; tries += 1) {
        const { filled } = await signedInCounts("up-front");
        await board(voter, "/wishing-well", "gzip");
        upFront = (await signedInCounts("up-front")).filled - filled;
      }
      expect(upFront).toBe(1);
    }

    // A vote taken back shows at once: the templates went with the write.
    await vote(voter, theirs, "remove");
    expect(await board(voter, "/wishing-well", "gzip")).not.toContain('aria-pressed="true"');
  });

  it("carry the request's id, and write its log line and count as every answer does", async () => {
    const cookie = await parent("counted@example.tw", "黃小安");
    const requests = () => Number(/^site_http_requests_total\{route="\/pricing",method="GET",status="200"\} (\d+)/m.exec(text)?.[1] ?? 0);
    let text = await metrics();
    const before = requests();
    const { requestId } = await page("/pricing", cookie, { "x-request-id": "parent-page.7", "accept-encoding": "gzip" });
    expect(requestId).toBe("parent-page.7");
    // The log writes a turn's lines at its end: the line may follow the answer by a moment.
    const lineOf = () => site.output().split("\n").find((candidate) => candidate.includes('"requestId":"parent-page.7"'));
    for (let waited = 0; !lineOf() && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(JSON.parse(lineOf() ?? "{}")).toMatchObject({ msg: "request", method: "GET", path: "/pricing", status: 200 });
    text = await metrics();
    expect(requests()).toBe(before + 1);
  });

  it("know the parent from the cookie alone: a client's template header changes nothing", async () => {
    const cookie = await parent("header@example.tw", "陳小美");
    const { html } = await page("/features", cookie, { "x-signed-in-template": "11111" });
    expect(html).toContain("陳小美");
    expect(html).not.toContain("zqx");
  });

  it("leave a visitor with a cookie that names no session the visitor's page", async () => {
    const answer = await fetch(`${site.baseURL}/features`, { headers: { cookie: "better-auth.session_token=stale.value" } });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('href="/login"');
    expect(html).not.toContain('<details class="user-area user-menu"');
    expect((await signedInCounts()).rendered).toBeGreaterThan(0);
  });
});
