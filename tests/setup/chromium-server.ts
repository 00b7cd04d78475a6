import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { chromiumArgs, chromiumPath } from "~tests/e2e/helpers/chromium";

declare module "vitest" {
  export interface ProvidedContext {
    /** The e2e run's one Chromium (Playwright's browser server), which each file's `useBrowser` connects to. */
    chromiumEndpoint: string;
  }
}

/**
 * One Chromium for the whole e2e run instead of one launched per test file (or per `describe.each` row): each file
 * connects, opens its own contexts (isolated as before: own cookies, storage and address) and disconnects, which
 * closes them. About half a second of launch per file, fifty a run.
 */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
