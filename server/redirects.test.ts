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
    const target = canonicalRedirect(from, { https: true });
    expect(target).toBe(to);
    expect(new URL(target!).hostname).toBe("example.tw");
  });

  it.each(["https://example.tw/", "https://example.tw/features", "https://example.tw/blog?page=2"])(
    "leaves %s alone",
    (url) => expect(canonicalRedirect(url, { https: true })).toBeNull(),
  );

  it("keeps an https site on https when the proxy forwards plain http", () => {
    expect(canonicalRedirect("http://www.example.tw/faq/?a=1", { https: true })).toBe("https://example.tw/faq?a=1");
    expect(canonicalRedirect("http://example.tw/faq", { https: true })).toBeNull();
    expect(canonicalRedirect("http://localhost:3000/faq/", { https: false })).toBe("http://localhost:3000/faq");
  });
});
