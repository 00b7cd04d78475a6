import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthError } from "./auth-client";
import { popupErrorCode, signInWithPopup } from "./social-popup";

const authOrigin = "http://localhost:3000";

/** Opens the pop-up (a stand-in window) and lets it post `error` back the way the completion page does. */
async function popupFailure(error: { code: string }) {
  const popup = { closed: false, close: vi.fn() };
  vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
  const result = signInWithPopup("google", authOrigin).then(() => null, (failure: unknown) => failure);
  const nonce = new URL(vi.mocked(window.open).mock.calls[0]![0] as string).searchParams.get("popupNonce");
  window.dispatchEvent(new MessageEvent("message", { origin: authOrigin, data: { type: "better-auth:oauth-popup", nonce, error } }));
  return result;
}

describe("social sign-in pop-up errors", () => {
  afterEach(() => vi.restoreAllMocks());

  it("maps an account that cannot be linked to account-exists-with-different-credential", async () => {
    const failure = await popupFailure({ code: "account_not_linked" });
    expect(failure).toBeInstanceOf(AuthError);
    expect(failure).toMatchObject({ code: "auth/account-exists-with-different-credential", message: "此電子郵件已使用其他登入方式註冊" });
  });

  it("keeps cancellation and other failures as before", async () => {
    expect(await popupFailure({ code: "access_denied" })).toMatchObject({ code: "auth/cancelled-popup-request" });
    expect(popupErrorCode("access_denied")).toBe("auth/cancelled-popup-request");
    expect(popupErrorCode("account_not_linked")).toBe("auth/account-exists-with-different-credential");
    expect(popupErrorCode("state_mismatch")).toBe("auth/operation-not-allowed");
    expect(popupErrorCode(undefined)).toBe("auth/operation-not-allowed");
  });
});
