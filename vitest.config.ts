import { configDefaults, defineConfig } from "vitest/config";
import { scaledTimeout, timeoutScale } from "./tests/helpers/machine-load.ts";
import { isolatedTestFiles, postgresTestFiles } from "./tests/setup/test-files.ts";
import { e2eServerCount } from "./tests/e2e/setup/e2e-servers.ts";

// Six projects: node-side unit and data-layer tests on SQLite (`unit`, and `unit-isolated` for the few that replace
// modules), the same files' PostgreSQL halves (`postgres`, beside them rather than after them in the same file),
// component tests in happy-dom, fault tests against the built server, and end-to-end tests in Chromium against the
// built, started server.

// The tests that wait on servers and browsers get longer timeouts on a busy machine (never shorter than written):
// read once here, from the load average over the cores (tests/helpers/machine-load.ts).
const scale = timeoutScale();
// The test processes inherit it, so a file's own timeouts (`scaledTimeout`) use the same figure.
process.env.TEST_TIMEOUT_SCALE = String(scale);
const unitFiles = ["app/**/*.test.ts", "server/**/*.test.ts", "tests/integration/**/*.test.ts"];
const postgresFiles = postgresTestFiles();
// The node-side files share one module graph per worker (`isolate: false`): importing the server anew for each file
// was half the unit and postgres projects' time. A file that replaces modules or the environment for itself runs
// isolated, in its own project (`unit-isolated`), found by reading it.
const isolatedFiles = isolatedTestFiles();
const nodeSide: { environment: "node"; env: Record<string, string>; globalSetup: string[]; setupFiles: string[]; testTimeout: number; hookTimeout: number } = {
  environment: "node",
  // The in-process servers' log lines (two thousand a run) went straight to the output, past Vitest's capture of the
  // console; a test that reads them spies on the logger, which works at any level. LOG_LEVEL=info shows them.
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  globalSetup: ["tests/setup/postgres.ts"],
  setupFiles: ["tests/setup/short-keep-alive.ts"],
  testTimeout: scaledTimeout(20_000, scale),
  // Vitest's default 10 s, stretched: a beforeAll that starts a server and migrates meets the load too.
  hookTimeout: scaledTimeout(10_000, scale),
};

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Two files at a time even on two cores (Vitest's default would be one): most files wait on servers and deadlines.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          ...nodeSide,
          name: "unit",
          include: unitFiles,
          exclude: [...configDefaults.exclude, ...postgresFiles.only, ...isolatedFiles],
          isolate: false,
          provide: { testDialects: ["sqlite"] },
        },
      },
      {
        extends: true,
        test: {
          ...nodeSide,
          name: "unit-isolated",
          include: isolatedFiles,
          provide: { testDialects: ["sqlite"] },
        },
      },
      {
        // The PostgreSQL halves of the data-layer files (`describeEachDatabase`, `describePostgres`): the files that
        // name one, found by reading them. Their other tests run here too (a few quick ones per file).
        extends: true,
        test: {
          ...nodeSide,
          name: "postgres",
          include: postgresFiles.files,
          // A PostgreSQL file that replaces modules for itself would need its own project; none does (test-files.ts).
          isolate: false,
          provide: { testDialects: ["postgres"] },
        },
      },
      {
        extends: true,
        test: {
          name: "components",
          include: ["app/**/*.test.tsx"],
          environment: "happy-dom",
          setupFiles: ["tests/setup/components.ts"],
        },
      },
      {
        // Faults and operations: each file starts the built server itself (on free ports, with its own data) and
        // breaks what it depends on. Needs the build, like e2e; no shared server, so its files may run beside
        // the unit files — they mostly wait on deadlines, which fills the unit files' idle time.
        extends: true,
        test: {
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/postgres.ts"],
          setupFiles: ["tests/setup/short-keep-alive.ts"],
          testTimeout: scaledTimeout(120_000, scale),
          hookTimeout: scaledTimeout(60_000, scale),
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          // One server per worker (tests/e2e/setup/server.ts), as many as E2E_SERVERS (one by default). After every
          // other file when one Vitest runs them all; `npm test` runs them in a Vitest of their own beside the rest
          // (scripts/test.sh, docs/performance.md "The test command").
          globalSetup: ["tests/e2e/setup/server.ts"],
          setupFiles: ["tests/setup/short-keep-alive.ts"],
          maxWorkers: e2eServerCount,
          fileParallelism: e2eServerCount > 1,
          sequence: { groupOrder: 1 },
          testTimeout: scaledTimeout(60_000, scale),
          hookTimeout: scaledTimeout(120_000, scale),
          // A browser on a loaded machine may take seconds to show what a poll waits for; 1 s is Vitest's default.
          expect: { poll: { timeout: scaledTimeout(10_000, scale) } },
        },
      },
    ],
  },
});
