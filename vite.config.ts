import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { tsconfigPaths: true },
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
});
