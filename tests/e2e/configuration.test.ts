import { generateKeyPairSync } from "node:crypto";
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

/** Starts the build with `env` and waits for its start line: the pages the same for every visitor are rendered then. */
async function startedWith(port: number, env: Record<string, string>) {
  const server = await launchServer({ port, buildDir: process.env.BUILD_DIR || "build-test", env });
  const deadline = Date.now() + 60_000;
  while (!server.output().includes('"event":"start"')) {
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`no start line within 60 s:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

/** The answers a deployment's own configuration shows in: its pages, sitemap, robots, manifest and OpenID discovery. */
async function answersOf(origin: string) {
  const text = async (path: string) => {
    const response = await fetch(`${origin}${path}`);
    expect(response.status, path).toBe(200);
    return { body: await response.text(), csp: response.headers.get("content-security-policy") ?? "" };
  };
  return {
    home: await text("/"),
    login: await text("/login"),
    loginData: await text("/login.data"),
    sitemap: await text("/sitemap.xml"),
    robots: await text("/robots.txt"),
    manifest: await text("/manifest.webmanifest"),
    discovery: await text("/.well-known/openid-configuration"),
  };
}

const appleKey = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const apps = (clientId: string, scheme: string) =>
  JSON.stringify([{ client_id: clientId, client_name: clientId, first_party: true, public: true, redirect_uris: [`${scheme}:/callback`], post_logout_redirect_uris: [] }]);

describe("one build, started for two deployments", () => {
  it("each start's pages, sitemap, robots, manifest and OpenID discovery show only its own configuration", { timeout: 180_000 }, async () => {
    const deployments: { port: number; appUrl: string; scheme: string; shows: string; hides: string; env: Record<string, string> }[] = [
      {
        port: e2ePort + 1,
        appUrl: "https://app-one.example.test",
        scheme: "tw.example.first",
        shows: "透過 Apple 登入",
        hides: "使用 Google 登入",
        env: { APPLE_CLIENT_ID: "tw.example.first.web", APPLE_TEAM_ID: "TEAMONE123", APPLE_KEY_ID: "KEYONE1234", APPLE_PRIVATE_KEY: appleKey(), OIDC_CLIENTS: apps("first-app", "tw.example.first") },
      },
      {
        port: e2ePort + 2,
        appUrl: "https://app-two.example.test",
        scheme: "tw.example.second",
        shows: "使用 Google 登入",
        hides: "透過 Apple 登入",
        env: { GOOGLE_CLIENT_ID: "second.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "second-google-secret", OIDC_CLIENTS: apps("second-app", "tw.example.second") },
      },
    ];
    const seen = [];
    for (const deployment of deployments) {
      const server = await startedWith(deployment.port, { ...deployment.env, APP_URL: deployment.appUrl });
      try {
        seen.push({ deployment, origin: server.origin, answers: await answersOf(server.origin), startLine: server.output().split("\n").find((line) => line.includes('"event":"start"')) ?? "" });
      } finally {
        await server.stop();
      }
    }
    for (const [index, { deployment, origin, answers, startLine }] of seen.entries()) {
      const other = seen[1 - index]!;
      // Its own origin in the canonical link, og:url, the sitemap, robots and the discovery's issuer; the other's nowhere.
      expect(answers.home.body).toContain(`<link rel="canonical" href="${origin}"`);
      expect(answers.login.body).toContain(`<link rel="canonical" href="${origin}/login"`);
      expect(answers.sitemap.body).toContain(`<loc>${origin}</loc>`);
      expect(answers.robots.body).toContain(`${origin}/sitemap.xml`);
      expect(JSON.parse(answers.discovery.body).issuer).toBe(origin);
      // Its own app address in the pages' settings; its own sign-in buttons; its own apps in the forms' targets.
      expect(answers.home.body).toContain(deployment.appUrl);
      expect(answers.login.body).toContain(deployment.shows);
      expect(answers.login.body).not.toContain(deployment.hides);
      expect(answers.login.body).not.toContain("使用開發測試帳號登入");
      expect(answers.login.csp).toContain(`${deployment.scheme}:`);
      expect(answers.loginData.body).toContain(deployment.shows === "透過 Apple 登入" ? '"apple"' : '"google"');
      for (const answer of Object.values(answers)) {
        expect(answer.body).not.toContain(other.origin);
        expect(answer.body).not.toContain(other.deployment.appUrl);
        expect(answer.csp).not.toContain(`${other.deployment.scheme}:`);
      }
      expect(answers.manifest.body).toBe(other.answers.manifest.body.replaceAll(other.origin, origin));
      // The start line says what this start runs with, without a secret.
      expect(startLine).toContain(`"apps":["${index === 0 ? "first-app" : "second-app"}"]`);
      expect(startLine).not.toContain("second-google-secret");
      expect(startLine).not.toContain("PRIVATE KEY");
    }
  });

  it("two starts with the same configuration serve the same bytes, precompressed, with the same CSP", { timeout: 180_000 }, async () => {
    const bodies = [];
    for (const run of [1, 2]) {
      const server = await startedWith(e2ePort + 1, { APP_URL: "https://app-one.example.test" });
      try {
        const pages = [];
        for (const path of ["/", "/login", "/features", "/login.data"]) {
          const response = await fetch(`${server.origin}${path}`, { headers: { "accept-encoding": "br" } });
          expect(response.headers.get("content-encoding"), `${path} (start ${run})`).toBe("br");
          pages.push({ path, etag: response.headers.get("etag"), csp: response.headers.get("content-security-policy"), body: await response.text() });
        }
        bodies.push(pages);
      } finally {
        await server.stop();
      }
    }
    expect(bodies[1]).toEqual(bodies[0]);
    // A rendered page's scripts are allowed by their hashes (no nonce: the same bytes for everyone).
    expect(bodies[0]![1]!.csp).toMatch(/script-src 'sha256-/);
  });
});
