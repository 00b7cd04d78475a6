import { describe, expect, it } from "vitest";
import { prerenderedPaths, unlistedPrerenderedPaths } from "~/prerendered-paths";
import { robotsTxt, sitemapPaths, sitemapXml } from "./sitemap.server";

describe("sitemap", () => {
  it("lists the prerendered pages but the sign-in screens, and the public server-rendered ones, once each", async () => {
    const paths = await sitemapPaths();
    const listed = (await prerenderedPaths()).filter((path) => !unlistedPrerenderedPaths.includes(path));
    expect(paths).toEqual(expect.arrayContaining([...listed, "/blog", "/news", "/wishing-well", "/dev-blog"]));
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((path) => /^\/(login|signup|current-plan|dev-blog\/create|api)/.test(path))).toEqual([]);
  });

  it("writes canonical URLs, escaped", () => {
    expect(sitemapXml("https://example.tw", ["/", "/faq", "/a&b"])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        "  <url><loc>https://example.tw</loc></url>\n  <url><loc>https://example.tw/faq</loc></url>\n" +
        "  <url><loc>https://example.tw/a&amp;b</loc></url>\n</urlset>\n",
    );
  });

  it("points robots.txt at it and keeps crawlers out of the API", () => {
    const robots = robotsTxt("https://example.tw");
    expect(robots).toContain("Sitemap: https://example.tw/sitemap.xml");
    expect(robots).toContain("Disallow: /api/");
  });
});
