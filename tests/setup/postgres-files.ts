import fs from "node:fs";
import path from "node:path";

/** A suite that runs on PostgreSQL names one of these (tests/helpers/databases.ts). */
const postgresSuite = /\b(describeEachDatabase|describePostgres)\(/;
/** A suite that runs on SQLite, or on no database: a data-layer suite, or a top-level describe/it/test. */
const otherSuite = /\bdescribeEachDatabase\(|^(describe|it|test)\b[.\w]*\(/m;

/**
 * The node-side test files with a PostgreSQL half: the `postgres` project runs these (vitest.config.ts), read from the
 * files themselves so no list is kept by hand — a new file with `describeEachDatabase` is in it by being written.
 */
export function postgresTestFiles(roots = ["app", "server", "tests/integration"], cwd = process.cwd()) {
  const found: string[] = [];
  const only: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") visit(relative);
      } else if (entry.name.endsWith(".test.ts")) {
        const source = fs.readFileSync(path.join(cwd, relative), "utf8");
        if (!postgresSuite.test(source)) continue;
        found.push(relative);
        if (!otherSuite.test(source)) only.push(relative);
      }
    }
  };
  for (const root of roots) if (fs.existsSync(path.join(cwd, root))) visit(root);
  /** `files`: every file with a PostgreSQL half; `only`: those with nothing else, which the SQLite project leaves out. */
  return { files: found.sort(), only: only.sort() };
}
