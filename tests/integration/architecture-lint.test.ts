import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layering lives in eslint.config.js. An import the resolver cannot follow is skipped silently, so these
// probes prove that the rules see through the aliases (~/, ~content/) and Vite's `?inline` queries.
const eslint = new ESLint();

async function boundaryProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === "import-x/no-restricted-paths").map((message) => message.message);
}

describe("the architecture lint", () => {
  it.each([
    ["a shared component reaching into a feature's CSS", "app/components/probe.tsx", 'import css from "~/features/shell/shell.css?inline";\nexport const x = css;\n', "Layers: components"],
    ["content data depending on the app", "content/probe.ts", 'import type { SessionUser } from "~/features/auth/auth-client";\nexport type X = SessionUser;\n', "Layers: content"],
    ["a feature using another feature's private file", "app/features/pages/probe.ts", 'import { useScrolled } from "~/features/shell/use-scrolled";\nexport const x = useScrolled;\n', "Outside features/shell"],
    ["the host importing a feature file that is not its entry point", "server/probe.ts", 'import { loadData } from "~/features/pages/data.server";\nexport const x = loadData;\n', "The host imports a feature only"],
    ["a feature reaching past the sign-in layer's faces", "app/features/pages/probe.ts", 'import { useAuth } from "~/features/auth/auth-provider";\nexport const x = useAuth;\n', "Outside features/auth"],
    ["a module of the sign-in layer importing its own face", "app/features/auth/probe.ts", 'import { useAuth } from "~/features/auth";\nexport const x = useAuth;\n', "Inside features/auth"],
    ["a way in's unit importing the ways in's face", "app/features/auth/ways-in/phone/probe.ts", 'import { emailAddress } from "~/features/auth/ways-in";\nexport const x = emailAddress;\n', "Inside features/auth"],
    ["the host importing the sign-in layer's browser face", "server/probe.ts", 'import { roles } from "~/features/auth";\nexport const x = roles;\n', "The host imports a feature only"],
    ["a route importing the database", "app/routes/site/probe.ts", 'import { getDatabase } from "~/db/db.server";\nexport const x = getDatabase;\n', "Layers: routes"],
    ["a helper importing the configuration", "app/lib/probe.ts", 'import { getEnv } from "~/config/env.server";\nexport const x = getEnv;\n', "Layers: lib"],
  ])("refuses %s", async (_name, file, code, message) => {
    expect(await boundaryProblems(file, code)).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    ["a feature using another feature's public file", "app/features/pages/probe.ts", 'import { track } from "~/features/analytics/track";\nexport const x = track;\n'],
    ["the host using a named entry point", "server/probe.ts", 'import { getAuthService } from "~/features/auth/index.server";\nexport const x = getAuthService;\n'],
    ["a feature using the sign-in layer's three faces", "app/features/pages/probe.ts", 'import { useAuth } from "~/features/auth";\nimport { getViewer } from "~/features/auth/index.server";\nimport { phoneSchema } from "~/features/auth/ways-in";\nexport const x = [useAuth, getViewer, phoneSchema];\n'],
    ["a feature reading the content data", "app/features/pages/probe.ts", 'import { about } from "~content/about";\nexport const x = about;\n'],
    ["content data using its own types", "content/probe.ts", 'import type { PageIntro } from "./types";\nexport type X = PageIntro;\n'],
  ])("allows %s", async (_name, file, code) => {
    expect(await boundaryProblems(file, code)).toEqual([]);
  });

  it("refuses an import cycle: the sign-in layer's roles reaching back to the service that builds them", async () => {
    // auth-service.server.ts → auth.server.ts → roles.server.ts; this probe stands in for roles.server.ts.
    const code = 'import { getAuthService } from "./auth-service.server";\nexport const x = getAuthService;\n';
    const [result] = await eslint.lintText(code, { filePath: "app/features/auth/roles.server.ts" });
    expect(result?.messages.map((message) => message.ruleId)).toEqual(["import-x/no-cycle"]);
  });

  it("refuses an import that climbs out of its folder with ../", async () => {
    const [result] = await eslint.lintText('import { z } from "../lib/zod";\nexport const x = z;\n', { filePath: "app/features/probe.ts" });
    expect(result?.messages.map((message) => `${message.ruleId}: ${message.message}`)).toEqual([expect.stringMatching(/^no-restricted-imports: .*Import from another folder through its root alias/)]);
  });

  it("refuses a fetcher's submission without its own address, and takes one with it", async () => {
    const rule = async (options: string) => {
      const code = `import { useFetcher } from "react-router";\nexport function Probe() {\n  const fetcher = useFetcher();\n  return <button onClick={() => void fetcher.submit({ a: "1" }${options})} />;\n}\n`;
      const [result] = await eslint.lintText(code, { filePath: "app/features/pages/probe.tsx" });
      return result?.messages.map((message) => message.ruleId);
    };
    expect(await rule(', { method: "post" }')).toEqual(["no-restricted-syntax"]);
    expect(await rule("")).toEqual(["no-restricted-syntax"]);
    expect(await rule(', { method: "post", action: "/probe" }')).toEqual([]);
  });

  it("keeps the sign-in layer's public face at ten files at most, each of them there (issue 42)", async () => {
    // The lint's own zone for features/auth: the files it lets the rest of the app import.
    const config = await eslint.calculateConfigForFile("app/features/pages/probe.ts");
    const [, { zones }] = config.rules["import-x/no-restricted-paths"] as [unknown, { zones: { from: string | string[]; except?: string[] }[] }];
    const auth = path.resolve("app/features/auth");
    const face = zones.find((zone) => zone.from === auth && zone.except)?.except ?? [];
    expect(face.length).toBeGreaterThan(0);
    expect(face.length).toBeLessThanOrEqual(10);
    for (const file of face) expect(fs.existsSync(path.join(auth, file)), file).toBe(true);
  });

  it("keeps features depending on each other one way: no loop between feature folders", () => {
    // no-cycle sees loops of files; a loop of folders (auth → shell → auth through different files) it cannot.
    const uses = new Map<string, Set<string>>();
    for (const entry of fs.readdirSync("app/features", { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const feature = file.split(path.sep)[2] ?? "";
      for (const [, other = ""] of fs.readFileSync(file, "utf8").matchAll(/from "~\/features\/([\w-]+)[/"]/g)) {
        if (other !== feature) uses.set(feature, (uses.get(feature) ?? new Set()).add(other));
      }
    }
    const loops: string[] = [];
    const visit = (feature: string, trail: string[]) => {
      for (const next of uses.get(feature) ?? []) {
        if (trail.includes(next)) loops.push([...trail.slice(trail.indexOf(next)), next].join(" → "));
        else visit(next, [...trail, next]);
      }
    };
    for (const feature of uses.keys()) visit(feature, [feature]);
    expect(uses.size).toBeGreaterThan(5);
    expect(loops).toEqual([]);
  });
});
