// The release is one artifact (scripts/release.sh): built with secrets in the environment it keeps none of them,
// and the folder, copied as it is, starts with only its own variables on the Node.js it brings (docs/operations.md).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const secret = `build-env-secret-${process.pid}-${Date.now()}`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "release-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }), 300_000);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("scripts/release.sh", () => {
  it("makes one folder that holds no build-time secret and starts anywhere with only its variables", { timeout: 600_000 }, async () => {
    const release = path.join(work, "made");
    // Every deployment variable a build once read, set to the secret: none may end up in the build.
    const buildEnv = {
      ...process.env,
      SITE_URL: `https://${secret}.example.test`,
      APP_URL: `https://app-${secret}.example.test`,
      GOOGLE_CLIENT_ID: secret,
      GOOGLE_CLIENT_SECRET: secret,
      GA_MEASUREMENT_ID: "G-SECRET1234",
      BOT_CHECK: "turnstile",
      OIDC_CLIENTS: JSON.stringify([{ client_id: secret, redirect_uris: ["tw.example.secret:/callback"], public: true }]),
    };
    // The commit the release is built from (scripts/build-version.mjs), as the start line must name it.
    const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
    const version = git("rev-parse", "--short=12", "HEAD") + (git("status", "--porcelain", "--untracked-files=no") ? "-modified" : "");
    execFileSync("bash", ["scripts/release.sh", release], { env: buildEnv, stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
    const holding = filesUnder(path.join(release, "build")).filter((file) => {
      const content = fs.readFileSync(file);
      return content.includes(secret) || content.includes("G-SECRET1234");
    });
    expect(holding).toEqual([]);
    expect(filesUnder(path.join(release, "build")).filter((file) => file.endsWith(".html"))).toEqual([]);

    // Deployed unchanged: the folder moved elsewhere, started as the systemd unit does (its own node, no shell, no
    // npm), with nothing but its variables in the environment.
    const deployed = path.join(work, "current");
    fs.renameSync(release, deployed);
    const port = 3000 + Math.floor(Math.random() * 20_000) + 20_000;
    const data = path.join(work, "data");
    fs.mkdirSync(data);
    const child = spawn(path.join(deployed, "node_modules/.bin/node"), ["server.mjs"], {
      cwd: deployed,
      env: { NODE_ENV: "production", PORT: String(port), SITE_URL: `http://localhost:${port}`, DATA_DIR: data, BOT_CHECK: "off", METRICS_PORT: "0", WEB_CONCURRENCY: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('"event":"start"') && child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(output).toContain('"event":"start"');
      const startLine = JSON.parse(output.split("\n").find((line) => line.includes('"event":"start"'))!);
      expect(startLine.node).toMatch(/^v24\./);
      // The production build's pages, rendered at start from this start's variables.
      expect(startLine.pagesRendered).toBeGreaterThan(20);
      expect(startLine.version).toBe(version);
      const login = await fetch(`http://localhost:${port}/login`);
      expect(login.status).toBe(200);
      expect(await login.text()).toContain(`<link rel="canonical" href="http://localhost:${port}/login"`);
      expect(login.headers.get("content-security-policy")).toMatch(/script-src 'sha256-/);
      // No warning about the runtime (oidc-provider's "Unsupported runtime", Node's deprecations).
      expect(output).not.toMatch(/"level":40|Unsupported runtime|DeprecationWarning/);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
