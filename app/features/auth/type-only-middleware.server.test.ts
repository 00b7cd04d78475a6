// Better Auth's two middlewares in front of every hook are dropped only while they answer nothing (decision 716).
import { createAuthMiddleware, optionsMiddleware } from "better-auth/api";
import { describe, expect, it } from "vitest";
import { droppedHookMiddlewares, dropTypeOnlyHookMiddlewares, hookMiddlewares } from "./type-only-middleware.server";

const authContext = () => ({ secret: "a-secret", options: { appName: "小幫手" } });
/** Called the way Better Auth calls a before hook: its endpoint's context, and the headers asked back. */
const callAsBetterAuth = (hook: unknown, context: object = authContext()) =>
  (hook as (call: object) => Promise<{ headers: Headers; response: unknown }>)({
    body: { email: "mom@example.tw", password: "tide-lantern-47" },
    headers: new Headers({ cookie: "site.session_token=abc", origin: "https://example.tw" }),
    path: "/sign-in/email",
    context,
    returnHeaders: true,
  });

describe("the hooks' type-only middlewares", () => {
  it("are Better Auth's optionsMiddleware and one more, and are gone from every hook once dropped", () => {
    const madeBefore = createAuthMiddleware(async () => ({}));
    // Some other test in this worker may have started a site already (each start drops them); the answer is the same.
    expect(dropTypeOnlyHookMiddlewares()).toBe(true);
    expect(droppedHookMiddlewares).toHaveLength(2);
    expect(droppedHookMiddlewares[0]).toBe(optionsMiddleware);
    expect(hookMiddlewares).toHaveLength(0);
    // One array for every hook: those made before the drop and those made after.
    expect(madeBefore.options.use).toHaveLength(0);
    expect(createAuthMiddleware(async () => ({})).options.use).toHaveLength(0);
  });

  it("answered nothing: no header, no context, and the auth context as it was", async () => {
    dropTypeOnlyHookMiddlewares();
    expect(droppedHookMiddlewares).toHaveLength(2);
    for (const middleware of droppedHookMiddlewares) {
      const context = authContext();
      const { headers, response } = await callAsBetterAuth(middleware, context);
      expect([...headers]).toEqual([]);
      expect(response).toEqual({});
      expect(context).toEqual(authContext());
    }
  });

  it("leaves a hook its context, its headers and its answer", async () => {
    dropTypeOnlyHookMiddlewares();
    const hook = createAuthMiddleware(async (ctx) => {
      ctx.setHeader("x-seen", `${ctx.path} ${ctx.context.secret} ${ctx.getCookie("site.session_token")}`);
      return { context: { body: { ...ctx.body, email: ctx.body.email.toUpperCase() } } };
    });
    const { headers, response } = await callAsBetterAuth(hook);
    expect(headers.get("x-seen")).toBe("/sign-in/email a-secret abc");
    expect(response).toEqual({ context: { body: { email: "MOM@EXAMPLE.TW", password: "tide-lantern-47" } } });
  });
});
