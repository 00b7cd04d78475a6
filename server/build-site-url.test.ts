import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtSiteUrl, siteUrlMismatch } from "./build-site-url";

const build = fs.mkdtempSync(path.join(os.tmpdir(), "build-site-url-"));
fs.mkdirSync(path.join(build, "client"));
fs.writeFileSync(path.join(build, "client", "index.html"), `<head><link rel="canonical" href="https://taskhero.tw"/></head>`);
afterAll(() => fs.rmSync(build, { recursive: true, force: true }));

describe("the prerendered pages' SITE_URL", () => {
  it("is read from the home page's canonical link", () => {
    expect(builtSiteUrl(build)).toBe("https://taskhero.tw");
    expect(builtSiteUrl(path.join(build, "missing"))).toBeNull();
  });

  it("warns, naming both origins and the fix, only when the running SITE_URL differs", () => {
    expect(siteUrlMismatch(build, "https://taskhero.tw")).toBeNull();
    const warning = siteUrlMismatch(build, "http://localhost:3000");
    expect(warning).toContain("SITE_URL=https://taskhero.tw");
    expect(warning).toContain("SITE_URL=http://localhost:3000");
    expect(warning).toContain("npm run build");
  });
});
