import { describe, expect, it } from "vitest";
import { normalizePassword, passwordProblem, passwordRules } from "./password-policy";
import { commonPasswordCount, isCommonPassword } from "./common-passwords.server";
import { catalogueCode } from "./api-errors.server";
import { requestTimeoutMs } from "./auth-client";
import { authErrorMessages, messageForCode } from "./auth-error-messages";

describe("password policy", () => {
  const policy = { minLength: 8, maxLength: 128, requireLowercase: false, requireUppercase: false, requireDigit: false, requireSymbol: false };

  it("says the catalogue's weak-password message with the configured minimum", () => {
    expect(passwordRules("abc", policy).map((rule) => rule.id)).toEqual(["length", "common"]);
    expect(passwordProblem("1234567", policy)).toBe("密碼強度不足，至少需要 8 個字元");
    expect(passwordProblem("12345", { ...policy, minLength: 6 })).toBe("密碼強度不足，至少需要 6 個字元");
    expect(passwordProblem("kite-river", policy)).toBeNull();
    expect(passwordProblem("x".repeat(129), policy)).toBe("密碼不可超過 128 個字元");
  });

  it("counts characters after NFC normalisation", () => {
    const nfd = "Cafe\u0301-cafe\u0301"; // 11 code points as NFD, 9 as NFC
    expect(normalizePassword(nfd)).toBe("Café-café");
    expect(passwordProblem(nfd, { ...policy, minLength: 10 })).toBe("密碼強度不足，至少需要 10 個字元");
  });

  it("names every broken optional rule", () => {
    const strict = { ...policy, requireLowercase: true, requireUppercase: true, requireDigit: true, requireSymbol: true };
    expect(passwordProblem("abcdefgh", strict)).toBe("密碼強度不足：需要至少一個大寫英文字母、至少一個數字、至少一個特殊符號");
    expect(passwordProblem("Abcdef1!", strict)).toBeNull();
  });

  it("refuses common passwords from a list of more than 10,000, Taiwanese favourites included", () => {
    expect(commonPasswordCount).toBeGreaterThan(10_000);
    for (const common of ["123456", "password", "qwerty123", "1qaz2wsx", "aa123456", "woaini1314", "5201314", "Password", "taipei101"]) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    expect(isCommonPassword("kite-river-42")).toBe(false);
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
