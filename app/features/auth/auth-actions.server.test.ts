import { describe, expect, it } from "vitest";
import {
  deleteAccountAction,
  forgotPasswordAction,
  loginAction,
  resendVerificationAction,
  resetPasswordAction,
  signupAction,
  verifyEmailAction,
} from "./auth-actions.server";
import { resendVerificationSchema } from "./form-schemas";

const actions = {
  login: loginAction,
  signup: signupAction,
  forgotPassword: forgotPasswordAction,
  resetPassword: resetPasswordAction,
  resendVerification: resendVerificationAction,
  verifyEmail: verifyEmailAction,
  deleteAccount: (request: Request) => deleteAccountAction(request, resendVerificationSchema as never),
};

const malformed: [string, string][] = [
  ["multipart/form-data; boundary=x", "{"],
  ["application/json", "{"],
  ["text/plain", "\u0000\u0001"],
];

describe("sign-in form actions on a body that is not a form", () => {
  for (const [name, action] of Object.entries(actions)) {
    it.each(malformed)(`${name}: %s answers 400 with a sentence`, async (type, body) => {
      const request = new Request("http://localhost/verify-email?callbackURL=//evil.example", {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      const thrown = await action(request).then(
        () => null,
        (error: unknown) => error,
      );
      const answer = thrown as { type?: string; init?: { status?: number }; data?: { formError?: string } };
      expect(answer?.type).toBe("DataWithResponseInit");
      expect(answer.init?.status).toBe(400);
      expect(answer.data?.formError).toMatch(/表單資料格式不正確/);
    });
  }
});
