import { afterEach, expect, it, vi } from "vitest";
import { configureAuthOrigin, unexpectedDomainWarning } from "./auth-client";

afterEach(() => {
  vi.restoreAllMocks();
});

// happy-dom serves the test page from localhost.
it("uses the current origin on an allowed hostname, silently", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  expect(configureAuthOrigin({ allowedHostnames: [window.location.hostname], siteUrl: "https://example.tw" })).toBe(window.location.origin);
  expect(warn).not.toHaveBeenCalled();
});

it("warns in Chinese and falls back to SITE_URL on an unexpected hostname", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  expect(configureAuthOrigin({ allowedHostnames: ["example.tw"], siteUrl: "https://example.tw" })).toBe("https://example.tw");
  expect(warn).toHaveBeenCalledWith(unexpectedDomainWarning);
  expect(unexpectedDomainWarning).toBe("非預期的網域，可能導致驗證問題");
});
