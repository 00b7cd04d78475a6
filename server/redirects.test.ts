import { describe, expect, it } from "vitest";
import { canonicalRedirect } from "./redirects";

describe("canonicalRedirect", () => {
  it.each([
    ["https://www.example.tw/features?a=1", "https://example.tw/features?a=1"],
    ["https://www.example.tw/", "https://example.tw/"],
    ["https://example.tw/features/", "https://example.tw/features"],
    ["https://example.tw/blog/?page=2", "https://example.tw/blog?page=2"],
    ["https://example.tw/a///", "https://example.tw/a"],
    ["https://example.tw//evil.com/", "https://example.tw/evil.com"],
    ["https://example.tw//evil.com", "https://example.tw/evil.com"],
    ["https://www.example.tw/faq/", "https://example.tw/faq"],
  ])("%s → %s", (from, to) => {
    const target = canonicalRedirect(from);
    expect(target).toBe(to);
    expect(new URL(target!).hostname).toBe("example.tw");
  });

  it.each(["https://example.tw/", "https://example.tw/features", "https://example.tw/blog?page=2"])(
    "leaves %s alone",
    (url) => expect(canonicalRedirect(url)).toBeNull(),
  );
});
