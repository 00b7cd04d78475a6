import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { createAnalyticsHandler } from "./analytics-endpoint.server";
import { fixedWindowLimiter, memoryRateLimitStore } from "~/services/rate-limiter.server";
import { getEnv } from "~/config/env.server";

/** The site's own pages post with its origin (the request guard's trusted-Origin rule). */
const siteOrigin = new URL(getEnv().SITE_URL).origin;

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/analytics", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const everyEvent = [
  { name: "landing_page_open", params: {} },
  { name: "page_view", params: { page_path: "/faq", page_title: "常見問題 | 任務小勇士", page_location: "https://example.tw/faq?email=a%40b.tw#top" } },
  { name: "logo_click", params: {} },
  { name: "menu_toggle", params: { is_open: true } },
  { name: "nav_click", params: { destination: "/pricing" } },
  { name: "website_share", params: { share_method: "line", share_url: "https://example.tw" } },
  { name: "fanpage_support_click", params: { source: "follow_us_dialog" } },
];

describeEachDatabase("analytics endpoint", (database) => {
  const handler = () =>
    createAnalyticsHandler({
      db: database().handle.db,
      limiter: fixedWindowLimiter(memoryRateLimitStore(), { max: 1000, windowSeconds: 60 }, "analytics:"),
    });

  it("stores every event of the original §7, without query strings, cookies or addresses", async () => {
    const response = await handler()(post({ events: everyEvent }, { origin: siteOrigin, "x-forwarded-for": "203.0.113.9" }));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ stored: 7 });
    expect(response.headers.get("set-cookie")).toBeNull();

    const rows = await database().handle.db.selectFrom("analytics_events").selectAll().orderBy("name").execute();
    const stored = rows.map((row) => ({ name: row.name, params: JSON.parse(row.params) as unknown }));
    const expected = everyEvent.map((event) =>
      event.name === "page_view" ? { ...event, params: { ...event.params, page_location: "https://example.tw/faq" } } : event,
    );
    expect(stored).toEqual(expected.sort((a, b) => a.name.localeCompare(b.name)));
    expect(JSON.stringify(rows)).not.toContain("203.0.113.9");
    expect(rows.every((row) => !Number.isNaN(Date.parse(row.received_at)))).toBe(true);
  });

  it.each([
    ["an unknown event name", { events: [{ name: "purchase", params: {} }] }],
    ["a missing parameter", { events: [{ name: "menu_toggle", params: {} }] }],
    ["a parameter of the wrong type", { events: [{ name: "menu_toggle", params: { is_open: "yes" } }] }],
    ["an extra parameter (e.g. personal data)", { events: [{ name: "logo_click", params: { email: "a@b.tw" } }] }],
    ["an unknown share method", { events: [{ name: "website_share", params: { share_method: "fax", share_url: "https://example.tw" } }] }],
    ["a destination that is not a path", { events: [{ name: "nav_click", params: { destination: "https://evil.example" } }] }],
    ["an empty batch", { events: [] }],
    ["a batch over 20 events", { events: Array(21).fill({ name: "logo_click", params: {} }) }],
    ["no events array", { name: "logo_click" }],
  ])("answers 400 invalid_events for %s and stores nothing", async (_label, body) => {
    const before = await database().handle.db.selectFrom("analytics_events").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const response = await handler()(post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_events", message: "事件名稱或參數不正確。" } });
    const after = await database().handle.db.selectFrom("analytics_events").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("answers 400 invalid_json for a body that is not JSON", async () => {
    const response = await handler()(post("{not json"));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
  });

  it("answers 413 for a body over 16 KB", async () => {
    const response = await handler()(post({ events: [{ name: "page_view", params: { page_path: "/", page_title: "x".repeat(17_000), page_location: "https://example.tw/" } }] }));
    expect(response.status).toBe(413);
  });

  it("answers 403 to a post from another site", async () => {
    const response = await handler()(post({ events: [{ name: "logo_click", params: {} }] }, { origin: "https://evil.example" }));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("foreign-origin");
  });

  it("answers 405 to anything but POST", async () => {
    const response = await handler()(new Request("http://localhost/api/analytics"));
    expect(response.status).toBe(405);
  });
});

describe("analytics body limit", () => {
  it("stops reading a chunked body without a length once it passes 16 KB, answering 413", async () => {
    const handler = createAnalyticsHandler({
      db: undefined as never, // never reached: the body is refused before anything is stored
      limiter: fixedWindowLimiter(memoryRateLimitStore(), { max: 100, windowSeconds: 60 }, "analytics:"),
    });
    const chunk = new TextEncoder().encode("x".repeat(4096));
    // A body that never ends: buffering it whole would never answer.
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk) });
    const request = new Request("http://localhost/api/analytics", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const answer = await handler(request);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ error: { code: "too_large", message: "事件資料過大。" } });
  });
});

describe("analytics rate limit", () => {
  it("refuses a client over its limit with 429, per client address", async () => {
    const handler = createAnalyticsHandler({
      db: undefined as never, // never reached: every request here is refused or invalid before storing
      limiter: fixedWindowLimiter(memoryRateLimitStore(), { max: 2, windowSeconds: 60 }, "analytics:"),
    });
    const from = (address: string) => post("{}", { "x-client-ip": address });
    expect((await handler(from("198.51.100.1"))).status).toBe(400);
    expect((await handler(from("198.51.100.1"))).status).toBe(400);
    const refused = await handler(from("198.51.100.1"));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { code: "rate_limited", message: "傳送次數過多，請稍後再試。" } });
    expect((await handler(from("198.51.100.2"))).status).toBe(400);
  });

  it("opens a new window once the old one has passed", async () => {
    let now = 0;
    const limiter = fixedWindowLimiter(memoryRateLimitStore({ now: () => now }), { max: 1, windowSeconds: 1 }, "analytics:");
    expect((await limiter.hit("a")).allowed).toBe(true);
    expect((await limiter.hit("a")).allowed).toBe(false);
    now = 1_000;
    expect((await limiter.hit("a")).allowed).toBe(true);
  });
});
