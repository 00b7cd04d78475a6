import { describe, expect, it } from "vitest";
import { asksForTwoStep, loginProof } from "./sign-in-strength.server";

describe("an app's request for two steps (acr_values)", () => {
  it.each([
    ["urn:taskhero:acr:mfa", true],
    // The two-step class among unknown ones still asks for it; listing the one-step class too means either will do.
    ["urn:example:gold urn:taskhero:acr:mfa", true],
    ["urn:taskhero:acr:mfa urn:taskhero:acr:basic", false],
    ["urn:taskhero:acr:basic", false],
    ["urn:example:gold", false],
    [undefined, false],
  ])("%s asks for two steps: %s", (requested, expected) => {
    expect(asksForTwoStep(requested)).toBe(expected);
  });
});

describe("what the ID token says of a session's proof", () => {
  it.each([
    ["pwd", { amr: ["pwd"], acr: "urn:taskhero:acr:basic" }],
    ["otp mfa", { amr: ["otp", "mfa"], acr: "urn:taskhero:acr:mfa" }],
    ["hwk user mfa", { amr: ["hwk", "user", "mfa"], acr: "urn:taskhero:acr:mfa" }],
    ["sms", { amr: ["sms"], acr: "urn:taskhero:acr:basic" }],
    // A session made before the column existed, or by an email link, a social account or a guest.
    [null, { acr: "urn:taskhero:acr:basic" }],
  ])("%s → %o", (stored, expected) => {
    expect(loginProof(stored)).toEqual(expected);
  });
});
