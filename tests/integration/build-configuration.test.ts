import { describe, expect, it } from "vitest";
import { buildConfigurationError } from "~/config/build-check.server";

// `npm run build` reads the server's environment to prerender pages: a bad variable stops it with a message that
// names the variable (app/config/build-check.server.ts), not an opaque "Prerender… 500".
describe("the build's configuration check", () => {
  it("names a malformed OIDC_CLIENTS", () => {
    expect(buildConfigurationError({ OIDC_CLIENTS: '[{"client_id":"x"' })).toMatch(/建置停止[\s\S]*OIDC_CLIENTS: 必須是有效的 JSON/);
    expect(buildConfigurationError({ OIDC_CLIENTS: JSON.stringify([{ client_id: "x", redirect_uris: ["http://example.com/cb"] }]) })).toMatch(
      /OIDC_CLIENTS\.0\.redirect_uris\.0/,
    );
  });

  it("passes a well-formed environment", () => {
    expect(buildConfigurationError({ OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: ["http://127.0.0.1/callback"] }]) })).toBeNull();
  });
});
