import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * React Router 7.18's package exports name only its development build (remix-run/react-router#14102): dev-only
 * warnings and checks on every render. A production build resolves its `dist/production` twin instead, on the
 * server (bundled in, so Node's own resolution never picks the development files) and in the browser.
 * tests/integration/production-build.test.ts checks the built files.
 */
const reactRouterProduction = (file: string) => fileURLToPath(new URL(`node_modules/react-router/dist/production/${file}`, import.meta.url));

/**
 * A feature's face (an `index.ts` that only re-exports, by name: eslint.config.js) is declared free of side effects,
 * so a page that imports one name from it depends on that name's module alone. Without this, rolldown counts every
 * module a face names as loaded by every page that imports the face, and the shell group below takes them all in.
 */
const facesWithoutSideEffects: Plugin = {
  name: "faces-without-side-effects",
  transform: {
    filter: { id: /[\\/]app[\\/]features[\\/].+[\\/]index\.tsx?$/ },
    handler: (code) => ({ code, map: null, moduleSideEffects: false }),
  },
};

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
            // Fewer requests over HTTP/1.1's six connections without sending a page code it does not use: React DOM
            // in one chunk, React and React Router in another (one 340 KB file cost a slow phone's main thread one
            // long task to take in, two halves two shorter ones: decision 710), and the site's modules that at least
            // fourteen pages share (page head, styles, sign-in state) in a third; what fewer pages share stays in
            // rolldown's small chunks. Decision 700.
            // ~/lib/zod stays out of the shell, and so do the forms' schema, rule and form modules (they import it):
            // a group takes its modules' dependencies too, and pages without a form would load zod. The form kit
            // (components/form, the result notice, form results, Taiwan dates) stays out as well: many pages share
            // it, but the home page and the other pages without a form would pay for it (PRODUCT §9's budget). CSS
            // text stays out too (a screen loads it when it needs it: content-styles.tsx), and so does the sign-in
            // layer's whole error catalogue (the shell keeps the messages of its own failures: auth-client.ts). The page
            // heading (page-intro) and the sign-in links' helpers stay out as well: the home page uses neither. Two
            // more groups put the home page's small modules into two files rather than seven (each file costs its own
            // imports and gzip overhead): what the root loads beside the shell, and the landing pages' parts.
            codeSplitting: {
              groups: [
                { name: "react-dom", test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 3 },
                { name: "framework", test: /[\\/]node_modules[\\/](react|react-router|cookie|set-cookie-parser)[\\/]/, priority: 2 },
                { name: "hydrate-later", test: /[\\/]app[\\/](components[\\/]hydrate-later|features[\\/]analytics[\\/](track|beacon)|features[\\/]sign-in[\\/]passkey-support)\.tsx?$/, priority: 2 },
                { name: "page-parts", test: /[\\/]app[\\/]features[\\/]pages[\\/](closing-call|faq-item|illustration|start-links)\.tsx$/, priority: 2 },
                { name: "shell", test: /[\\/]app[\\/](?!features[\\/](pages[\\/]page-intro|sign-in[\\/]auth-paths)\.tsx?$)(?!lib[\\/](zod|form-result|taiwan-time))(?!components[\\/](form[\\/]|result-notice))(?!.*(-(schemas|rules|forms)|auth-error-messages)\.ts$)(?!.*\.css\?inline$)/, minShareCount: 14, priority: 1 },
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
  plugins: [reactRouter(), facesWithoutSideEffects],
}));
