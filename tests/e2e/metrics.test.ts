import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { e2ePort } from "./setup/server";

/**
 * /metrics as a default `npm start` serves it: two workers, the Prometheus text on METRICS_PORT (here with a bearer
 * token), summed over both workers, and never on the site's own port.
 */
describe("metrics", () => {
  let server: LaunchedServer;
  const metricsPort = e2ePort + 7;
  const token = "metrics-token-for-the-e2e-test";

  beforeAll(async () => {
    server = await launchServer({
      port: e2ePort + 6,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: { WEB_CONCURRENCY: "2", METRICS_PORT: String(metricsPort), METRICS_TOKEN: token },
      timeoutMs: 60_000,
    });
    const deadline = Date.now() + 60_000;
    while ((server.output().match(/網站已啟動/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 404 for /metrics on the public port", async () => {
    const answer = await fetch(`${server.origin}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain("site_http_requests_total");
  });
});
