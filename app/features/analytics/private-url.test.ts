import { describe, expect, it } from "vitest";
import { withoutPrivateParams } from "./private-url";

describe("withoutPrivateParams", () => {
  it("removes token and email and keeps everything else", () => {
    expect(withoutPrivateParams("https://example.tw/verify-email?email=a%40b.tw&token=abc&utm_source=mail#top"))
      .toBe("https://example.tw/verify-email?utm_source=mail#top");
    expect(withoutPrivateParams("https://example.tw/reset-password?token=abc")).toBe("https://example.tw/reset-password");
  });

  it("drops every field of the sign-in and account forms", () => {
    const typed = "email=a%40b.tw&password=p&confirm=p&newPassword=p&displayName=%E5%B0%8F%E6%98%8E&name=x&code=1&intent=guest";
    expect(withoutPrivateParams(`https://example.tw/login?${typed}&redirectTo=%2Ffaq`)).toBe("https://example.tw/login?redirectTo=%2Ffaq");
  });

  it("leaves an address without them unchanged", () => {
    expect(withoutPrivateParams("https://example.tw/faq?page=2")).toBe("https://example.tw/faq?page=2");
  });
});
