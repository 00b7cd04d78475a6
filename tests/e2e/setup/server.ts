import type { TestProject } from "vitest/node";
import { launchServer } from "~tests/helpers/launch-server.mjs";
import { e2eOidcClients } from "~tests/e2e/helpers/apps";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

export const e2ePort = Number(process.env.E2E_PORT ?? 3100);

/**
 * Starts the built site the way `npm start` does (production build, NODE_ENV=production) on the
 * embedded defaults: a fresh SQLite file in a temp folder and the development mailbox.
 */
export default async function setup(project: TestProject) {
  const server = await launchServer({
    port: e2ePort,
    buildDir: process.env.BUILD_DIR || "build-test",
    // Loopback is the trusted proxy: each browser context forwards its own address (familyHeaders).
    // The registered apps sign in through the site from 127.0.0.1 (tests/e2e/app-sign-in.test.ts).
    env: { DATABASE_URL: process.env.E2E_DATABASE_URL ?? "", TRUSTED_PROXIES: "127.0.0.1,::1", OIDC_CLIENTS: e2eOidcClients },
  });
  project.provide("baseURL", server.origin);
  project.provide("dataDir", server.dataDir);
  return server.stop;
}
