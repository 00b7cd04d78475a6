import { describe, expect, it } from "vitest";
import { canonicalUrl, pageMeta } from "./page-meta";

const env = { productName: "任務小勇士", siteUrl: "https://example.tw" };
const args = (pathname: string) => ({ matches: [{ id: "root", loaderData: { env } }], location: { pathname } });

describe("pageMeta", () => {
  it("titles the page `<page> | <product>` with its description, canonical URL and share tags", () => {
    expect(pageMeta(args("/faq"), { title: "常見問題", description: "家長最常問的問題" })).toEqual([
      { title: "常見問題 | 任務小勇士" },
      { name: "description", content: "家長最常問的問題" },
      { tagName: "link", rel: "canonical", href: "https://example.tw/faq" },
      { property: "og:type", content: "website" },
      { property: "og:site_name", content: "任務小勇士" },
      { property: "og:locale", content: "zh_TW" },
      { property: "og:title", content: "常見問題 | 任務小勇士" },
      { property: "og:description", content: "家長最常問的問題" },
      { property: "og:url", content: "https://example.tw/faq" },
      { property: "og:image", content: "https://example.tw/og-image.png" },
      { property: "og:image:width", content: "1200" },
      { property: "og:image:height", content: "630" },
      { name: "twitter:card", content: "summary_large_image" },
      { name: "twitter:title", content: "常見問題 | 任務小勇士" },
      { name: "twitter:description", content: "家長最常問的問題" },
      { name: "twitter:image", content: "https://example.tw/og-image.png" },
    ]);
  });

  it("keeps only the title when the root data is missing (an error page)", () => {
    expect(pageMeta({ matches: [] }, { title: "發生錯誤" })).toEqual([{ title: "發生錯誤" }]);
  });
});

describe("canonicalUrl", () => {
  it.each([
    ["https://example.tw", "/", "https://example.tw"],
    ["https://example.tw/", "/", "https://example.tw"],
    ["https://example.tw", "/blog/", "https://example.tw/blog"],
    ["https://example.tw", "/learning-resources/habits", "https://example.tw/learning-resources/habits"],
  ])("%s + %s → %s", (siteUrl, path, expected) => expect(canonicalUrl(siteUrl, path)).toBe(expected));
});
