import { describe, expect, it } from "vitest";
import { launchServer } from "~tests/helpers/launch-server.mjs";
import { e2ePort } from "./setup/server";

/** Starts the built server with extra variables and collects what it prints before it exits. */
async function startWith(variables: Record<string, string>) {
  // Beside the e2e server's port; a configuration that starts after all is stopped after 15 s.
  const server = await launchServer({ port: e2ePort + 1, buildDir: process.env.BUILD_DIR || "build-test", env: variables, waitForHealth: false });
  const timer = setTimeout(() => void server.stop(), 15_000);
  const code = await server.exited;
  clearTimeout(timer);
  await server.stop();
  return { code, output: server.output() };
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

describe("a configuration the prerendered pages were not built with", () => {
  it("is named at start: social sign-ins other than those the prerendered sign-in screens show", async () => {
    // The e2e build is a loopback site's: its /login shows the development provider's button, which a real
    // provider's keys turn off.
    const server = await launchServer({
      port: e2ePort + 1,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: { GOOGLE_CLIENT_ID: "client.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "google-secret" },
    });
    await server.stop();
    const warning = server
      .output()
      .split("\n")
      .find((line) => line.includes('"event":"sign-in-buttons-mismatch"'));
    expect(warning).toContain("（使用開發測試帳號登入）");
    expect(warning).toContain("（使用 Google 登入）");
    expect(warning).toContain("npm run build");
  });
});
