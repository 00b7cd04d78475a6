import { describe, expect, it } from "vitest";
import { OAUTH_POPUP_DATA_ELEMENT_ID } from "better-auth/plugins";
import { scrubSessionTokens, withoutSessionTokens } from "./session-token-scrub.server";

describe("session tokens stay in the cookie", () => {
  it("drops the token of sign-in answers and session records, and keeps other tokens (e.g. a JWT)", () => {
    expect(scrubSessionTokens({ token: "s3ss", user: { id: "u" } })).toEqual({ user: { id: "u" } });
    expect(scrubSessionTokens([{ token: "s3ss", userId: "u", expiresAt: "x" }])).toEqual([{ userId: "u", expiresAt: "x" }]);
    expect(scrubSessionTokens({ session: { token: "s3ss", userId: "u", expiresAt: "x" }, user: {} })).toEqual({
      session: { userId: "u", expiresAt: "x" },
      user: {},
    });
    expect(scrubSessionTokens({ token: "jwt.for.storage" })).toEqual({ token: "jwt.for.storage" });
  });

  it("takes the token out of the oauth pop-up's completion page", async () => {
    const payload = { type: "better-auth:oauth-popup", targetOrigin: "http://localhost:3000", nonce: "n", token: "s3ss", redirectTo: "/" };
    const page = `<!doctype html><script type="application/json" id="${OAUTH_POPUP_DATA_ELEMENT_ID}">${JSON.stringify(payload)}</script><script>x</script>`;
    const answer = await withoutSessionTokens(new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }));
    const text = await answer.text();
    expect(text).not.toContain("s3ss");
    expect(text).toContain('"nonce":"n"');
    expect(text).toContain("<script>x</script>");
  });
});
