import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { routeMap } from "~/lib/route-map";
import { emailCodeWayIn } from "./email-code";
import { wayInServer } from "./email-code.server";

/**
 * What is left to finish the way in "email-code" (CONTRIBUTING.md, "Add a way in"): each check names the step it waits
 * for. Its plugin is checked by tests/integration/auth-endpoints.test.ts (every row served by a live endpoint) and its
 * rules by way-in-contract.test.ts. Written by `npm run new:way-in`; once every check passes it stays as its guard.
 */
describe("the way in email-code", () => {
  it("is named on the account center", () => {
    expect(emailCodeWayIn.accountCenter.label, "set accountCenter.label in email-code.ts").not.toBe("TODO");
  });

  it("has a screen with a form action for each of its screens", () => {
    const mapped = routeMap.filter((entry) => entry.kind === "screen").map((entry) => `/${entry.path}`);
    for (const screen of emailCodeWayIn.screens) expect(mapped, `add screen("${screen.slice(1)}", …) to app/lib/route-map.ts`).toContain(screen);
    expect(wayInServer.screenAction, "give email-code.server.ts a screenAction").toBeTypeOf("function");
  });

  it("is proved on both databases and in Chromium", () => {
    expect(fs.existsSync("app/features/auth/ways-in/email-code/email-code-sign-in.test.ts"), "write email-code-sign-in.test.ts beside the unit").toBe(true);
    expect(fs.existsSync("tests/e2e/email-code-sign-in.test.ts"), "write tests/e2e/email-code-sign-in.test.ts").toBe(true);
  });
});
