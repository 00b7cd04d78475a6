import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html";

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & 小明</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; 小明&lt;/a&gt;");
  });

  it("leaves other text alone", () => {
    expect(escapeHtml("任務小勇士 https://example.tw/?a=1")).toBe("任務小勇士 https://example.tw/?a=1");
  });
});
