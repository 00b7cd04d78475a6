import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

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
  const buildDir = process.env.BUILD_DIR || "build-test";
  if (!fs.existsSync(`${buildDir}/server/index.js`)) {
    throw new Error(`No build in ${buildDir}: the test command builds it first (npm test).`);
  }
  const baseURL = `http://localhost:${e2ePort}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-e2e-"));
  const server = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(e2ePort),
      SITE_URL: baseURL,
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      REDIS_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));

  await waitForHealth(baseURL, server, () => output);
  project.provide("baseURL", baseURL);
  project.provide("dataDir", dataDir);

  return async () => {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

async function waitForHealth(baseURL: string, server: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Server exited early:\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill("SIGKILL");
  throw new Error(`Server did not become healthy within 30 s:\n${output()}`);
}
