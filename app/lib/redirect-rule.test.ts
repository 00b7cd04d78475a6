import { describe, expect, it } from "vitest";
import { safeRedirect, sameSitePath } from "./redirect-rule";

const site = "https://task-hero.example.tw";

describe("the redirect rule", () => {
  it.each([
    ["/faq?x=1#top", "/faq?x=1#top"],
    ["/", "/"],
    ["/current-plan", "/current-plan"],
    ["faq", "/faq"],
    ["/a/../faq", "/faq"],
    [`${site}/pricing?plan=free`, "/pricing?plan=free"],
    ["/a/%2F%2Fnot-leading", "/a/%2F%2Fnot-leading"],
    ["/search?q=%2F%2Fanything", "/search?q=%2F%2Fanything"],
    // Scheme-relative with the site's own scheme: the parser (and a browser) stays on the site.
    ["https:evil.example", "/evil.example"],
    ["https:/evil.example", "/evil.example"],
  ])("keeps the same-origin %j as %j", (target, expected) => {
    expect(safeRedirect(target, site)).toBe(expected);
  });

  it.each([
    "//evil.example/",
    "///evil.example/",
    "////evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/.//evil.example",
    "/./\\evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/.%2e//evil.example",
    "/\t/evil.example",
    // Once decoded by whoever reads it next, these start like another host or hold a control character.
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%2F%2Fevil.example",
    "/%5C%5Cevil.example",
    "/%2F%5Cevil.example",
    "/%00/faq",
    "/%E0%A4%A",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "https://evil.example/",
    "http://task-hero.example.tw/",
    "https://task-hero.example.tw.evil.example/",
    "https://task-hero.example.tw@evil.example/",
    "https://user:pass@task-hero.example.tw/faq",
    "https://evil.example\\@task-hero.example.tw/",
    "https://task-hero.example.tw:8443/",
    "https://xn--task-her-9za.example.tw/",
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example@task-hero.example.tw",
    "/\\/evil.example",
    "",
    null,
    undefined,
  ])("sends %j to /", (target) => {
    expect(safeRedirect(target, site)).toBe("/");
  });

  it("uses the fallback it is given, and refuses everything on an unparsable site", () => {
    expect(safeRedirect("//evil.example", site, "/login")).toBe("/login");
    expect(safeRedirect("/faq", "not a url")).toBe("/");
  });
});

describe("sameSitePath", () => {
  it("keeps a plain same-site path, normalised", () => {
    expect(sameSitePath("/storage/covers/a.png")).toBe("/storage/covers/a.png");
    expect(sameSitePath(" /images/../images/b.svg ")).toBe("/images/b.svg");
  });

  it.each(["/\t/evil.example/pixel.png", "/%09/evil.example/pixel.png", "//evil.example/pixel.png", "https://evil.example/x.png", "images/a.png", "javascript:alert(1)"])(
    "refuses %j",
    (target) => expect(sameSitePath(target)).toBeNull(),
  );
});

