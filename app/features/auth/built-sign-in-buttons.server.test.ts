import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { socialButtonLabels } from "./social-buttons";
import { builtSignInButtons, signInButtonsMismatch } from "./built-sign-in-buttons.server";

const build = fs.mkdtempSync(path.join(os.tmpdir(), "build-sign-in-buttons-"));
fs.mkdirSync(path.join(build, "client", "login"), { recursive: true });
fs.writeFileSync(
  path.join(build, "client", "login", "index.html"),
  `<main><button type="button" class="button">${socialButtonLabels.google}</button><button type="button" class="button button--apple"><svg></svg>${socialButtonLabels.apple}</button></main>`,
);
afterAll(() => fs.rmSync(build, { recursive: true, force: true }));

describe("the prerendered sign-in screens' social buttons", () => {
  it("are read from /login's words", () => {
    expect(builtSignInButtons(build)).toEqual(["apple", "google"]);
    expect(builtSignInButtons(path.join(build, "missing"))).toBeNull();
  });

  it("warn, naming both sets and the fix, only when the running configuration offers others", () => {
    expect(signInButtonsMismatch(build, ["google", "apple"])).toBeNull();
    const added = signInButtonsMismatch(build, ["google", "apple", "line"]);
    expect(added).toContain(`（${socialButtonLabels.apple}、${socialButtonLabels.google}）`);
    expect(added).toContain(socialButtonLabels.line);
    expect(added).toContain("npm run build");
    expect(signInButtonsMismatch(build, [])).toContain("（沒有）");
    expect(signInButtonsMismatch(path.join(build, "missing"), ["line"])).toBeNull();
  });
});
