import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// @react-router/dev 7.18.4 starts its internal Vite servers with `envFile: false`, which Vite 8 answers with a
// deprecation notice per server (three per build and per typegen). The option is theirs, not ours, and one of those
// servers takes no logger from this file; so this exact notice is dropped from the console while the config runs,
// and a clean build prints nothing to act on. Every other warning is printed as usual.
const printWarning = console.warn.bind(console);
console.warn = (...parts: unknown[]) => {
  if (typeof parts[0] === "string" && parts[0].includes("The `envFile` option is deprecated")) return;
  printWarning(...parts);
};

/**
 * React Router 7.18's package exports name only its development build (remix-run/react-router#14102): dev-only
 * warnings and checks on every render. A production build resolves its `dist/production` twin instead, on the
 * server (bundled in, so Node's own resolution never picks the development files) and in the browser.
 * tests/integration/production-build.test.ts checks the built files.
 */
const reactRouterProduction = (file: string) => fileURLToPath(new URL(`node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ mode }) => ({
  resolve: {
    tsconfigPaths: true,
    alias:
      mode === "production"
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction("index.mjs") },
            { find: /^react-router\/dom$/, replacement: reactRouterProduction("dom-export.mjs") },
          ]
        : [],
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Fewer requests over HTTP/1.1's six connections without sending a page code it does not use: React
            // and React Router in one chunk, and the site's modules that at least ten pages share (page head,
            // styles, sign-in state) in another; what fewer pages share stays in rolldown's small chunks. Decision 700.
            // ~/lib/zod stays out of the shell: a group takes its modules' dependencies too, and pages without a
            // form would load zod.
            codeSplitting: {
              groups: [
                { name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 2 },
                { name: "shell", test: /[\\/]app[\\/](?!lib[\\/]zod)/, minShareCount: 10, priority: 1 },
              ],
            },
          },
        },
      },
    },
    ssr: {
      build: {
        // The server bundle's entry is our Hono host (build/server/index.js); React Router's own build
        // becomes a chunk it imports.
        rollupOptions: { input: "./server/app.ts" },
      },
    },
  },
  plugins: [reactRouter()],
}));
