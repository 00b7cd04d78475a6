// Every page answer gets a nonce of its own: its CSP names the one the page's scripts carry, and no two answers share one.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { cspNonceHeader } from "~/features/security/csp.server";
import { securityHeaders, withCspNonce } from "./headers";

function site() {
  const app = new Hono();
  app.use(securityHeaders({ https: true, cspHashes: { pages: {}, styles: [] }, analytics: false, formTargets: [], frames: [] }));
  // The page reads its nonce as React Router does: from the request the host hands it.
  app.get("/page", (c) => c.html(`<script nonce="${withCspNonce(c, c.req.raw).headers.get(cspNonceHeader)}">1</script>`));
  return app;
}

describe("the CSP nonce", () => {
  it("is 18 random bytes in base64, the page's and its CSP's alike, and never the same twice (past a refill of its bytes)", async () => {
    const app = site();
    const seen = new Set<string>();
    const answers = 600;
    for (let index = 0; index < answers; index += 1) {
      const response = await app.request("/page");
      const inPolicy = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      const inPage = /nonce="([^"]+)"/.exec(await response.text())?.[1];
      expect(inPolicy).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(inPage).toBe(inPolicy);
      seen.add(inPolicy!);
    }
    expect(seen.size).toBe(answers);
  });
});
