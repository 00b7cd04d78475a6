import { defineConfig } from "vitest/config";

// Four projects: node-side unit and data-layer tests (on SQLite and PostgreSQL), component tests in
// happy-dom, fault tests against the built server, and end-to-end tests in Chromium against the built, started server.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Two files at a time, even on two cores (the default would be one): most files wait on servers and deadlines.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/postgres.ts"],
          setupFiles: ["tests/setup/short-keep-alive.ts"],
          testTimeout: 20_000,
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
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/e2e/setup/server.ts"],
          setupFiles: ["tests/setup/short-keep-alive.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A browser on a loaded machine may take seconds to show what a poll waits for; 1 s is Vitest's default.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
