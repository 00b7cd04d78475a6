import { describe, expect, it } from "vitest";
import { authHref } from "./auth-paths";

describe("authHref", () => {
  it("carries the destination only when it is not the home page", () => {
    expect(authHref("/login")).toBe("/login");
    expect(authHref("/login", "/")).toBe("/login");
    expect(authHref("/signup", "/faq?x=1")).toBe("/signup?redirectTo=%2Ffaq%3Fx%3D1");
  });
});
