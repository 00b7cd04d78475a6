import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hoistedStyles } from "./hoisted-styles";

/** Every component that hoists a <style> (a `precedence`) and the stylesheet it imports as text. */
function hoistingComponents(directory: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".tsx")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = fs.readFileSync(file, "utf8");
    if (!/<style\b[^>]*\bprecedence=/.test(source)) continue;
    for (const [, imported] of source.matchAll(/import\(?\s*(?:\w+\s+from\s+)?["'](\.[^"']+\.css)\?inline["']/g)) found.push(path.resolve(path.dirname(file), imported!));
  }
  return found.sort();
}

describe("the hoisted stylesheets' hashes", () => {
  // That each is the very text the browser adds, tests/e2e/security.test.ts holds (no violation after a navigation).
  it("cover every stylesheet a screen hoists into <head>", () => {
    const listed = Object.keys(hoistedStyles).map((file) => path.resolve("server", file)).sort();
    expect(listed).toHaveLength(3);
    expect(listed).toEqual(hoistingComponents(path.resolve("app")));
  });
});
