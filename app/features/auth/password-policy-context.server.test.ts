import { describe, expect, it } from "vitest";
import { leansOnContextWords, siteContextWords, userContextWords } from "./password-policy-context.server";

const site = siteContextWords({ PRODUCT_NAME: "任務小勇士", SITE_URL: "https://taskhero.tw", APP_URL: "https://app.taskhero.tw" });
const user = userContextWords({ email: "mei.chen@example.tw", name: "陳小美" });
const words = [...site, ...user];

describe("context words in passwords (ASVS 6.2.11)", () => {
  it.each(["taskhero123", "TaskHero2024!", "taiwan2024", "Taiwan-2024", "任務小勇士123", "ｔａｓｋｈｅｒｏ99", "meichen2024", "mei.chen1988", "陳小美19880101", "taiwanpassword1", "t4skh3r02024", "herotask2024", "H3r0T4sk!2024", "t@iw@n2024", "m31ch3n2024", "chenmei2024"])(
    "refuses %s",
    (password) => expect(leansOnContextWords(password, words)).toBe(true),
  );

  it.each(["kite-river-7", "taiwan-kite-river-7", "purple-taskhero-garden-42", "correct horse battery", "Mei-walks-the-dog-at-dawn"])(
    "accepts %s (no context word, or enough besides it)",
    (password) => expect(leansOnContextWords(password, words)).toBe(false),
  );

  it("takes the site's telling host name labels, not the generic ones", () => {
    expect(site).toContain("taskhero");
    expect(site).not.toContain("tw");
    expect(site).not.toContain("app");
  });
});
