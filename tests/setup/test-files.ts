import fs from "node:fs";
import path from "node:path";

// The node-side test files that need something of their own, read from the files themselves so no list is kept by
// hand: a new file is in the right project by being written (vitest.config.ts).

/** A suite that runs on PostgreSQL names one of these (tests/helpers/databases.ts). */
const postgresSuite = /\b(describeEachDatabase|describePostgres)\(/;
/** A suite that runs on SQLite, or on no database: a data-layer suite, or a top-level describe/it/test. */
const otherSuite = /\bdescribeEachDatabase\(|^(describe|it|test)\b[.\w]*\(/m;
/**
 * A file that replaces modules or the environment for itself: it needs a module graph of its own. The others share
 * one per worker (`isolate: false`), which spares each file the import of the whole server (half the unit time).
 */
const replacesModules = /\bvi\.(mock|doMock|unmock|resetModules|stubEnv|stubGlobal)\(/;

const defaultRoots = ["app", "server", "tests/integration"];

/** Every node-side test file under `roots` (`*.test.ts`), with its source. */
function testFiles(roots: readonly string[], cwd: string): { file: string; source: string }[] {
  const found: { file: string; source: string }[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") visit(relative);
      } else if (entry.name.endsWith(".test.ts")) {
        found.push({ file: relative, source: fs.readFileSync(path.join(cwd, relative), "utf8") });
      }
    }
  };
  for (const root of roots) if (fs.existsSync(path.join(cwd, root))) visit(root);
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * The node-side test files with a PostgreSQL half: the `postgres` project runs these. `files`: every file with a
 * PostgreSQL half; `only`: those with nothing else, which the SQLite project leaves out.
 */
export function postgresTestFiles(roots = defaultRoots, cwd = process.cwd()) {
  const withPostgres = testFiles(roots, cwd).filter(({ source }) => postgresSuite.test(source));
  return {
    files: withPostgres.map(({ file }) => file),
    only: withPostgres.filter(({ source }) => !otherSuite.test(source)).map(({ file }) => file),
  };
}

/** The node-side test files that replace modules or the environment for themselves (`replacesModules`). */
export function isolatedTestFiles(roots = defaultRoots, cwd = process.cwd()): string[] {
  return testFiles(roots, cwd)
    .filter(({ source }) => replacesModules.test(source))
    .map(({ file }) => file);
}
