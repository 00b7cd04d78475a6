import { spawnSync } from "node:child_process";
import { baseURL, serverDataDir } from "./browser";

/** Runs an operator command (`scripts/*.mjs`, what `npm run user:…` runs) on the data of the server under test. */
export function runOperatorScript(script: string, args: string[]) {
  return spawnSync(process.execPath, [script, ...args], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      SITE_URL: baseURL(),
      DATA_DIR: serverDataDir(),
      BUILD_DIR: process.env.BUILD_DIR || "build-test",
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
    },
    encoding: "utf8",
  });
}
