import zlib from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/config/env.server";
import { inlineHashes } from "~/features/security/csp.server";
import { compressStartupFiles, dataAddress, htmlAddress, renderStartupPages, startupCspHashes } from "./startup-pages";
import { startFacts, startSentence } from "./start-facts";
import { staticFiles } from "./static-files";

/** A React Router stand-in: the page names the origin it was asked for, as the real pages name SITE_URL. */
const site = new Hono();
site.get("/broken", (c) => c.text("失敗", 500));
site.get("*", (c) => {
  const url = new URL(c.req.url);
  if (url.pathname.endsWith(".data")) return c.text(`[{"page":"${url.pathname}"}]`);
  return c.html(`<!DOCTYPE html><link rel="canonical" href="${url.origin}${url.pathname}"><script>boot()</script><style>b{}</style>${"<p>內容</p>".repeat(100)}`);
});
const handle = (request: Request) => Promise.resolve(site.fetch(request));

describe("the pages rendered at start-up", () => {
  it("keep the addresses of the build's files: index.html per page, .data beside it, /_.data for the home page", () => {
    expect(htmlAddress("/")).toBe("/index.html");
    expect(htmlAddress("/blog/first")).toBe("/blog/first/index.html");
    expect(dataAddress("/")).toBe("/_.data");
    expect(dataAddress("/login")).toBe("/login.data");
  });

  it("are rendered from the running SITE_URL, page and data", async () => {
    const files = await renderStartupPages(handle, "https://staging.example.tw", ["/", "/login"]);
    expect(files.map((file) => file.urlPath)).toEqual(["/index.html", "/_.data", "/login/index.html", "/login.data"]);
    expect(files[2]!.content.toString()).toContain('href="https://staging.example.tw/login"');
    const other = await renderStartupPages(handle, "https://www.example.tw", ["/login"]);
    expect(other[0]!.content.toString()).toContain('href="https://www.example.tw/login"');
  });

  it("stop on a page that does not render, naming it", async () => {
    await expect(renderStartupPages(handle, "https://example.tw", ["/broken"])).rejects.toThrow(/\/broken（HTTP 500）/);
  });

  it("hash each page's inline scripts (not JSON data, not scripts with src) and every page's inline styles", () => {
    const html = '<script>a()</script><script type="application/json">{}</script><script src="/x.js"></script><script>a()</script><style>p{}</style>';
    const hashes = inlineHashes(html);
    expect(hashes.scripts).toHaveLength(1);
    expect(hashes.scripts[0]).toMatch(/^sha256-[\w+/]+=*$/);
    expect(hashes.styles).toHaveLength(1);
    const csp = startupCspHashes([
      { urlPath: "/index.html", content: Buffer.from(html) },
      { urlPath: "/_.data", content: Buffer.from("<script>not a page</script>") },
      { urlPath: "/about/index.html", content: Buffer.from("<style>q{}</style>") },
    ]);
    expect(Object.keys(csp.pages)).toEqual(["/", "/about"]);
    expect(csp.styles).toHaveLength(2);
  });

  it("are precompressed (brotli and gzip that decode to the page) and answered from memory like the build's files", async () => {
    const startupFiles = await compressStartupFiles(await renderStartupPages(handle, "https://example.tw", ["/features"]));
    const page = startupFiles.find((file) => file.urlPath === "/features/index.html")!;
    expect(zlib.brotliDecompressSync(page.br!).equals(page.content)).toBe(true);
    expect(zlib.gunzipSync(page.gzip!).equals(page.content)).toBe(true);
    // Under 512 bytes: sent as it is.
    expect(startupFiles.find((file) => file.urlPath === "/features.data")!.br).toBeUndefined();

    const app = new Hono();
    const files = staticFiles("/nonexistent-build", (pagePath) => ({ "x-page": pagePath ?? "none" }));
    app.use(files.middleware);
    app.all("*", (c) => c.text("rendered per request"));
    expect(await (await app.request("/features")).text()).toBe("rendered per request");
    files.add(startupFiles);
    const answer = await app.request("/features", { headers: { "accept-encoding": "br" } });
    expect(answer.headers.get("content-encoding")).toBe("br");
    expect(answer.headers.get("x-page")).toBe("/features");
    expect(answer.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(Buffer.from(await answer.arrayBuffer()).equals(page.br!)).toBe(true);
    expect(await (await app.request("/features.data")).text()).toBe('[{"page":"/features.data"}]');
  });
});

describe("the start line's facts", () => {
  it("name the runtime, database, ways in, apps and bot check, and no secret", () => {
    const env = parseEnv({
      SITE_URL: "http://localhost:3000",
      GOOGLE_CLIENT_ID: "web.apps.googleusercontent.com",
      GOOGLE_CLIENT_SECRET: "google-secret-value",
      OIDC_CLIENTS: JSON.stringify([{ client_id: "family-app", redirect_uris: ["tw.example.family:/callback"], public: true }]),
      BOT_CHECK: "off",
    });
    const facts = startFacts(env, ["google"], "abc123def456");
    expect(facts).toMatchObject({ version: "abc123def456", node: process.version, database: "sqlite", redis: false, apps: ["family-app"], botCheck: "off" });
    expect(facts.waysIn).toEqual(["password", "email-link", "guest", "passkey", "google"]);
    const sentence = startSentence(facts);
    expect(sentence).toContain("abc123def456");
    expect(sentence).toContain("family-app");
    expect(JSON.stringify(facts) + sentence).not.toContain("google-secret-value");
  });
});
