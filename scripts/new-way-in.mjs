// `npm run new:way-in -- <name>`: writes the skeleton of a new way in (CONTRIBUTING.md, "Add a way in") and registers it.
// app/features/auth/ways-in/<name>/ gets its unit (one row, every rule set to the strict choice), its server twin
// (no plugin yet) and its checklist test, which fails, item by item, until the way in is finished. The unit joins
// `waysIn` (auth-endpoints.ts), the twin joins ways-in/twins.server.ts, and the unit's line joins the ways in's face
// (ways-in/index.ts), where the screens outside the feature import its schemas from. `--root <dir>` writes into
// another copy.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ options: { root: { type: "string", default: "." } }, allowPositionals: true });
const [name] = positionals;
const fail = (message) => {
  console.error(message);
  process.exit(1);
};
if (!name || positionals.length > 1 || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  fail("Usage: npm run new:way-in -- <name>   (lower-case words joined by hyphens, e.g. email-code)");
}

const root = path.resolve(values.root);
const auth = path.join(root, "app/features/auth");
const folder = path.join(auth, "ways-in", name);
if (fs.existsSync(folder)) fail(`app/features/auth/ways-in/${name} already exists.`);

const camel = name.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
const unitName = `${camel}WayIn`;
const rowName = `${camel}SignIn`;

const unit = `import { wayIn } from "~/features/auth/way-in";

const post = ["POST"] as const;

// Its endpoints under /api/auth, as its Better Auth plugin serves them: one export per row, named like the row.
export const ${rowName} = "/${name}/sign-in";

/**
 * TODO: who this way in is for and what proves the person (CONTRIBUTING.md, "Add a way in"). Every rule of every row
 * is decided: the generator chose the strict answer for a sign-in; change each one on purpose.
 */
export const ${unitName} = wayIn({
  id: "${name}",
  identifies: "email",
  screens: ["/login/${name}"],
  accountCenter: { label: "TODO", listed: false, adds: [], removes: [] },
  rows: {
    ${rowName}: {
      path: ${rowName},
      methods: post,
      session: "creates",
      origin: "site",
      needs: "nothing",
      oneFactor: true,
      perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
      perIdentifier: false,
      lockout: "email",
      metric: "sign-in",
      recentSignIn: false,
      audit: "sign-in",
      notice: false,
      botCheck: false,
      proves: false,
    },
  },
});
`;

const twin = `import type { WayInServer } from "~/features/auth/way-in-plugins.server";
import { ${unitName} } from "./${name}";

/** The server half of ${name}.ts: its Better Auth plugins and its screen's form action. */
export const wayInServer: WayInServer = {
  unit: ${unitName},
  // TODO: the Better Auth plugin that serves every row of the unit (auth-endpoints.test.ts compares them).
  plugins: () => ({ plugins: [] }),
};
`;

const checklist = `import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { routeMap } from "~/lib/route-map";
import { ${unitName} } from "./${name}";
import { wayInServer } from "./${name}.server";

/**
 * What is left to finish the way in "${name}" (CONTRIBUTING.md, "Add a way in"): each check names the step it waits
 * for. Its plugin is checked by tests/integration/auth-endpoints.test.ts (every row served by a live endpoint) and its
 * rules by way-in-contract.test.ts. Written by \`npm run new:way-in\`; once every check passes it stays as its guard.
 */
describe("the way in ${name}", () => {
  it("is named on the account center", () => {
    expect(${unitName}.accountCenter.label, "set accountCenter.label in ${name}.ts").not.toBe("TODO");
  });

  it("has a screen with a form action for each of its screens", () => {
    const mapped = routeMap.filter((entry) => entry.kind === "screen").map((entry) => \`/\${entry.path}\`);
    for (const screen of ${unitName}.screens) expect(mapped, \`add screen("\${screen.slice(1)}", …) to app/lib/route-map.ts\`).toContain(screen);
    expect(wayInServer.screenAction, "give ${name}.server.ts a screenAction").toBeTypeOf("function");
  });

  it("is proved on both databases and in Chromium", () => {
    expect(fs.existsSync("app/features/auth/ways-in/${name}/${name}-sign-in.test.ts"), "write ${name}-sign-in.test.ts beside the unit").toBe(true);
    expect(fs.existsSync("tests/e2e/${name}-sign-in.test.ts"), "write tests/e2e/${name}-sign-in.test.ts").toBe(true);
  });
});
`;

/** Inserts `line` after the last line of `file` that matches `after`; refuses a file that changed shape. */
function insertAfterLast(file, after, line) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const at = lines.findLastIndex((text) => after.test(text));
  if (at < 0) fail(`${path.relative(root, file)} has no line like ${after}: register ${name} there by hand.`);
  lines.splice(at + 1, 0, line);
  fs.writeFileSync(file, lines.join("\n"));
}

/** Adds `entry` at the end of the array literal on the line that matches `list`. */
function appendToList(file, list, entry) {
  const text = fs.readFileSync(file, "utf8");
  const match = list.exec(text);
  if (!match) fail(`${path.relative(root, file)} has no list like ${list}: register ${name} there by hand.`);
  fs.writeFileSync(file, text.replace(list, `${match[1]}, ${entry}${match[2]}`));
}

fs.mkdirSync(folder, { recursive: true });
fs.writeFileSync(path.join(folder, `${name}.ts`), unit);
fs.writeFileSync(path.join(folder, `${name}.server.ts`), twin);
fs.writeFileSync(path.join(folder, `${name}.test.ts`), checklist);

const endpoints = path.join(auth, "auth-endpoints.ts");
insertAfterLast(endpoints, /^import \{ \w+WayIn \} from "\.\/ways-in\//, `import { ${unitName} } from "./ways-in/${name}/${name}";`);
appendToList(endpoints, /(export const waysIn = \[[^\]]*?)(\] as const;)/, unitName);

const twins = path.join(auth, "ways-in/twins.server.ts");
insertAfterLast(twins, /^import \{ wayInServer as \w+ \} from "\.\//, `import { wayInServer as ${camel} } from "./${name}/${name}.server";`);
appendToList(twins, /(export const wayInTwins: readonly WayInServer\[\] = \[[^\]]*?)(\];)/, camel);

// The face outside code imports the unit from; its schemas join this line when a screen needs them.
const face = path.join(auth, "ways-in/index.ts");
insertAfterLast(face, /^export \{ \w+WayIn\b.* \} from "\.\//, `export { ${unitName} } from "./${name}/${name}";`);

console.log(`Wrote app/features/auth/ways-in/${name}/ (${name}.ts, ${name}.server.ts, ${name}.test.ts) and registered it in
auth-endpoints.ts (waysIn), ways-in/twins.server.ts and ways-in/index.ts (the face). Next: npx vitest run app/features/auth/ways-in/${name}
says what is left; CONTRIBUTING.md, "Add a way in", says how.`);
