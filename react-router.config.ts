import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Tests build into their own folder so they never overwrite the site's build.
  buildDirectory: process.env.BUILD_DIR || "build",
  // No page is rendered at build time: the build reads no deployment variable, and the pages that are the same for
  // every visitor are rendered once at start-up from the running configuration (server/startup-pages.ts, decision 1030).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
