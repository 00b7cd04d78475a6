import type { Config } from "@react-router/dev/config";
import { prerenderedPaths } from "./app/prerendered-paths";
import { buildConfigurationError } from "./app/config/build-check.server";

/** A bad variable stops the build before any page is prerendered (app/config/build-check.server.ts). */
async function pathsToPrerender() {
  const problem = buildConfigurationError(process.env);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  return prerenderedPaths();
}

export default {
  ssr: true,
  // Tests build into their own folder (with their own SITE_URL) so they never overwrite the site's build.
  buildDirectory: process.env.BUILD_DIR || "build",
  // Static screens are rendered to HTML at build time; the server sends those files as they are.
  prerender: pathsToPrerender,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
