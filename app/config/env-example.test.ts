import fs from "node:fs";
import { describe, expect, it } from "vitest";

/** `.env.example` is the operator's list of settings: it names every variable the configuration reads. */
describe(".env.example", () => {
  it("lists every variable of app/config/env.server.ts", () => {
    const schema = fs.readFileSync("app/config/env.server.ts", "utf8");
    const example = fs.readFileSync(".env.example", "utf8");
    const variables = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(40);
    expect(variables.filter((name) => !new RegExp(`^#? ?${name}=`, "m").test(example))).toEqual([]);
  });
});
