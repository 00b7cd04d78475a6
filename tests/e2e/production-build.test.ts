// The build under test runs React Router's production build on the server and in the browser (vite.config.ts):
// its development build keeps dev-only checks and warnings on every render (remix-run/react-router#14102).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const buildDir = process.env.BUILD_DIR || "build-test";

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(m?js)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Text that only React Router's development build carries (guarded by its ENABLE_DEV_WARNINGS switch). */
const developmentOnly = ["You rendered descendant <Routes>", "ENABLE_DEV_WARNINGS = true", "You should not include both `Component` and `element`"];

describe("React Router's production build", () => {
  it.each(["server", "client"])("the built %s holds none of its development-only code", (side) => {
    const files = filesUnder(path.join(buildDir, side));
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      return developmentOnly.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`);
    });
    expect(found).toEqual([]);
  });

  it("the server imports no react-router package at run time (Node would resolve its development build)", () => {
    const imports = filesUnder(path.join(buildDir, "server")).flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*["'](react-router(?:\/[^"']*)?|@react-router\/[^"']+)["']/g)].map((match) => `${file}: ${match[1]}`),
    );
    expect(imports).toEqual([]);
  });

  it("the browser's framework chunk carries React Router (so the check above looked at it)", () => {
    const framework = filesUnder(path.join(buildDir, "client")).filter((file) => /framework-[\w-]+\.js$/.test(file));
    expect(framework.length).toBe(1);
    expect(fs.readFileSync(framework[0]!, "utf8")).toContain("useNavigate() may be used only in the context of a <Router> component.");
  });
});
