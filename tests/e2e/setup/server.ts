import type { TestProject } from "vitest/node";
import { launchServer } from "~tests/helpers/launch-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

export const e2ePort = Number(process.env.E2E_PORT ?? 3100);

/**
 * Starts the built site the way `npm start` does (production build, NODE_ENV=production) on the
 * embedded defaults: a fresh SQLite file in a temp folder and the development mailbox; the footer's pages are set.
 */
export default async function setup(project: TestProject) {
  const server = await launchServer({
    port: e2ePort,
    buildDir: process.env.BUILD_DIR || "build-test",
    env: {
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      // The project's own pages elsewhere, as a real deployment sets them (each link is hidden when unset).
      FACEBOOK_PAGE_URL: "https://www.facebook.com/taskhero",
      FACEBOOK_COMMUNITY_URL: "https://www.facebook.com/groups/taskhero",
      YOUTUBE_URL: "https://www.youtube.com/@taskhero",
      BLOG_SALON_URL: "https://vocus.cc/salon/taskhero",
      FEEDBACK_FORM_URL: "https://forms.gle/taskhero",
    },
  });
  project.provide("baseURL", server.origin);
  project.provide("dataDir", server.dataDir);
  return server.stop;
}
