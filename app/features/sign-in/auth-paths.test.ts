import { describe, expect, it } from "vitest";
import { authHref } from "./auth-paths";

describe("authHref", () => {
  it("carries the destination only when it is not the home page", () => {
    expect(authHref("/login")).toBe("/login");
    expect(authHref("/login", "/")).toBe("/login");
    expect(authHref("/signup", "/faq?x=1")).toBe("/signup?redirectTo=%2Ffaq%3Fx%3D1");
  });

  it("takes every sign-in screen of the route map, and nothing else, with no list kept by hand", () => {
    expect(authHref("/login/email-code", "/faq")).toBe("/login/email-code?redirectTo=%2Ffaq");
    // @ts-expect-error: /account is no sign-in screen (a module under routes/auth/ in the route map)
    expect(authHref("/account")).toBe("/account");
  });
});
