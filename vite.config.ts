import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
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
