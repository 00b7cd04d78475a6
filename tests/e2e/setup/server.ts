import type { TestProject } from "vitest/node";
import { launchServer } from "~tests/helpers/launch-server.mjs";
import { e2eOidcClients } from "~tests/e2e/helpers/apps";
import { e2eServerCount } from "./e2e-servers";

export interface E2eServer {
  baseURL: string;
  dataDir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eServers: E2eServer[];
  }
}

export const e2ePort = Number(process.env.E2E_PORT ?? 3100);

/**
 * Starts the built site the way `npm start` does (production build, NODE_ENV=production) on the
 * embedded defaults: a fresh SQLite file in a temp folder and the development mailbox; one per worker.
 */
export default async function setup(project: TestProject) {
  const servers = await Promise.all(
    Array.from({ length: e2eServerCount }, (_, index) =>
      launchServer({
        port: e2ePort + 20 * index,
        buildDir: process.env.BUILD_DIR || "build-test",
        // Loopback is the trusted proxy: each browser context forwards its own address (familyHeaders).
        // The registered apps sign in through the site from 127.0.0.1 (tests/e2e/app-sign-in.test.ts).
        env: { DATABASE_URL: process.env.E2E_DATABASE_URL ?? "", TRUSTED_PROXIES: "127.0.0.1,::1", OIDC_CLIENTS: e2eOidcClients },
      }),
    ),
  );
  project.provide(
    "e2eServers",
    servers.map((server) => ({ baseURL: server.origin, dataDir: server.dataDir })),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
