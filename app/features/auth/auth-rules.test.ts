import { describe, expect, it } from "vitest";
import { passwordProblem, passwordRules } from "./password-policy";
import { catalogueCode } from "./api-errors.server";
import { messageForCode, authErrorMessages } from "./auth-errors";
import { requestTimeoutMs } from "./auth-client";

describe("password policy", () => {
  const policy = { minLength: 6, maxLength: 128, requireLowercase: false, requireUppercase: false, requireDigit: false, requireSymbol: false };

  it("defaults to the original's single rule: at least 6 characters", () => {
    expect(passwordRules("abc", policy).map((rule) => rule.id)).toEqual(["length"]);
    expect(passwordProblem("12345", policy)).toBe("密碼強度不足：需要6–128 個字元");
    expect(passwordProblem("123456", policy)).toBeNull();
  });

  it("names every broken optional rule", () => {
    const strict = { ...policy, requireLowercase: true, requireUppercase: true, requireDigit: true, requireSymbol: true };
    expect(passwordProblem("abcdefgh", strict)).toBe("密碼強度不足：需要至少一個大寫英文字母、至少一個數字、至少一個特殊符號");
    expect(passwordProblem("Abcdef1!", strict)).toBeNull();
  });
});

describe("error catalogue", () => {
  it.each([
    [401, { code: "INVALID_EMAIL_OR_PASSWORD" }, "auth/invalid-credential"],
    [403, { code: "EMAIL_NOT_VERIFIED" }, "email-not-verified"],
    [422, { code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" }, "auth/email-already-in-use"],
    [400, { code: "VALIDATION_ERROR", message: "[body.email] Invalid email address" }, "auth/invalid-email"],
    [400, { code: "VALIDATION_ERROR", message: "[body.name] Required" }, "auth/invalid-request"],
    [403, { code: "INVALID_CALLBACK_URL" }, "auth/unauthorized-continue-uri"],
    [403, { code: "INVALID_ORIGIN" }, "auth/unauthorized-domain"],
    [429, { message: "Too many requests. Please try again later." }, "auth/too-many-requests"],
    [500, null, "auth/internal-error"],
    [404, null, "auth/not-found"],
  ])("%i %j → %s", (status, body, code) => {
    expect(catalogueCode(status, body)).toBe(code);
  });

  it("has a Traditional-Chinese message for every code and a default for unknown ones", () => {
    for (const message of Object.values(authErrorMessages)) expect(message).toMatch(/[\u4e00-\u9fff]/);
    expect(messageForCode("auth/something-new")).toBe("操作失敗，請重試");
    expect(messageForCode("email-not-verified")).toBe("電子郵件尚未驗證，請先完成驗證");
  });
});

it("times auth requests out after 30 s on a desktop and 60 s on a phone", () => {
  expect(requestTimeoutMs("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130")).toBe(30_000);
  expect(requestTimeoutMs("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")).toBe(60_000);
  expect(requestTimeoutMs("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari")).toBe(60_000);
});
