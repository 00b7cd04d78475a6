import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Starts the built server with extra variables and collects what it prints before it exits. */
function startWith(variables: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["server.mjs"], {
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: process.env.BUILD_DIR || "build-test", PORT: "3999", ...variables },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("a bad configuration stops the server with a message naming the variable", () => {
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/site" }, "DATABASE_URL"],
    [{ SITE_URL: "https://example.tw" }, "SMTP_HOST"],
  ])("%o", async (variables, name) => {
    const { code, output } = await startWith(variables);
    expect(code).toBe(1);
    expect(output).toContain("設定錯誤");
    expect(output).toMatch(new RegExp(`^\\s+${name}:`, "m"));
    expect(output).not.toMatch(/\bat .+\.js:\d+/); // no stack trace
  });
});
