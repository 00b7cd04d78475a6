// After the build: the git commit it was made from, in <build>/version.json, which the server names in its start
// line and in /metrics (server/start-facts.ts). The code's identity, not a deployment's: no variable is read.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const buildDir = process.env.BUILD_DIR || "build";
let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const changed = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  if (changed) commit += "-modified";
} catch {
  // Not a git checkout (a source archive): the version stays "unknown".
}
fs.writeFileSync(path.join(buildDir, "version.json"), `${JSON.stringify({ commit })}\n`);
console.log(`build version ${commit}`);
