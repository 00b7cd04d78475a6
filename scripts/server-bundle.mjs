// The server module for operator commands (`npm run user:role`, `npm run user:sign-out`): the production build
// when there is one, else the source loaded through Vite. Like `npm start`, a `.env` file is read first (variables
// already in the environment win), so a command runs on the same database as the server.
import fs from "node:fs";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

export async function loadServer() {
  const built = `./${process.env.BUILD_DIR || "build"}/server/index.js`;
  if (fs.existsSync(new URL(`../${built}`, import.meta.url))) return import(`../${built}`);
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom", logLevel: "error" });
  return vite.ssrLoadModule("./server/app.ts");
}

/** Runs one command on the server module: prints its answer and exits 0, or prints the error and exits 1. */
export async function runCommand(command) {
  try {
    console.log(await command(await loadServer()));
    process.exit(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
