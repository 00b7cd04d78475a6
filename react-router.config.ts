import type { Config } from "@react-router/dev/config";
import { prerenderedPaths } from "./app/prerendered-paths";

export default {
  ssr: true,
  // Tests build into their own folder (with their own SITE_URL) so they never overwrite the site's build.
  buildDirectory: process.env.BUILD_DIR || "build",
  // Static screens are rendered to HTML at build time; the server sends those files as they are.
  prerender: prerenderedPaths,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
