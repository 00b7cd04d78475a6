import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * `npm run new:way-in -- <name>` (scripts/new-way-in.mjs), run on a copy of the three files it edits: it writes the
 * folder's three files, registers the unit and its twin and adds the unit's line to the ways in's face, and refuses
 * a name that is taken or malformed.
 */
const endpointsFile = "app/features/auth/auth-endpoints.ts";
const twinsFile = "app/features/auth/ways-in/twins.server.ts";
const faceFile = "app/features/auth/ways-in/index.ts";
const edited = [endpointsFile, twinsFile, faceFile];
let root = "";

function copyOfTheEditedFiles() {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "new-way-in-"));
  for (const file of edited) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(file, path.join(root, file));
  }
  return root;
}
const generate = (...args: string[]) => spawnSync(process.execPath, ["scripts/new-way-in.mjs", ...args, "--root", root], { encoding: "utf8" });
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm run new:way-in", () => {
  it("writes the unit, its twin and its checklist, registers both, and puts the unit on the ways in's face", () => {
    copyOfTheEditedFiles();
    const faceBefore = read(faceFile).split("\n");
    const result = generate("email-code");
    expect(result.status, result.stderr).toBe(0);
    const folder = "app/features/auth/ways-in/email-code";
    expect(fs.readdirSync(path.join(root, folder)).sort()).toEqual(["email-code.server.ts", "email-code.test.ts", "email-code.ts"]);
    expect(read(`${folder}/email-code.ts`)).toContain('export const emailCodeSignIn = "/email-code/sign-in";');
    expect(read(`${folder}/email-code.ts`)).toContain('id: "email-code",');
    expect(read(`${folder}/email-code.server.ts`)).toContain("unit: emailCodeWayIn,");
    expect(read(`${folder}/email-code.test.ts`)).toContain("add screen(");

    const endpoints = read(endpointsFile);
    expect(endpoints).toContain('import { emailCodeWayIn } from "./ways-in/email-code/email-code";');
    expect(endpoints).toMatch(/export const waysIn = \[[^\]]*, emailCodeWayIn\] as const;/);
    const twins = read(twinsFile);
    expect(twins).toContain('import { wayInServer as emailCode } from "./email-code/email-code.server";');
    expect(twins).toMatch(/export const wayInTwins: readonly WayInServer\[\] = \[[^\]]*, emailCode\];/);
    // One line more on the face, after the last unit's: outside the feature, a screen imports the unit from there.
    const face = read(faceFile).split("\n");
    const line = 'export { emailCodeWayIn } from "./email-code/email-code";';
    const lastUnit = faceBefore.findLastIndex((text) => /^export \{ \w+WayIn\b/.test(text));
    expect(face).toEqual([...faceBefore.slice(0, lastUnit + 1), line, ...faceBefore.slice(lastUnit + 1)]);
  });

  it("refuses a way in that exists and a name that is not lower-case words with hyphens, and writes nothing", () => {
    copyOfTheEditedFiles();
    fs.mkdirSync(path.join(root, "app/features/auth/ways-in/phone"));
    const before = edited.map(read);
    for (const name of ["phone", "Email_Code", "../escape"]) {
      const result = generate(name);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(name === "phone" ? /already exists/ : /Usage: npm run new:way-in/);
    }
    expect(edited.map(read)).toEqual(before);
    expect(fs.readdirSync(path.join(root, "app/features/auth/ways-in")).sort()).toEqual(["index.ts", "phone", "twins.server.ts"]);
  });
});
