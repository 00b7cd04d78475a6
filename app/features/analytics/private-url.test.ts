import { describe, expect, it } from "vitest";
import { withoutPrivateParams } from "./private-url";

describe("withoutPrivateParams", () => {
  it("removes token and email and keeps everything else", () => {
    expect(withoutPrivateParams("https://example.tw/verify-email?email=a%40b.tw&token=abc&utm_source=mail#top"))
      .toBe("https://example.tw/verify-email?utm_source=mail#top");
    expect(withoutPrivateParams("https://example.tw/reset-password?token=abc")).toBe("https://example.tw/reset-password");
  });

  it("leaves an address without them unchanged", () => {
    expect(withoutPrivateParams("https://example.tw/faq?page=2")).toBe("https://example.tw/faq?page=2");
  });
});
