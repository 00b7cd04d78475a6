import { describe, expect, it } from "vitest";
import { robotsTxt, sitemapPaths, sitemapXml } from "./sitemap.server";

describe("sitemap", () => {
  it("lists the public pages the route map lists, each content page, and no sign-in or per-account screen, once each", () => {
    const paths = sitemapPaths();
    expect(paths).toEqual(expect.arrayContaining(["/", "/faq", "/blog", "/news", "/wishing-well", "/dev-blog", "/account-deletion", "/blog/chores-by-age"]));
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((path) => /^\/(login|signup|current-plan|account\/|admin|dev-blog\/create|dev\/|api|firebase-test)/.test(path))).toEqual([]);
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
