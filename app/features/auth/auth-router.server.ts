import { router } from "better-auth/api";
import { runWithAdapter } from "@better-auth/core/context";
import type { Auth } from "./auth.server";

/**
 * Better Auth's HTTP handler with its router kept between requests (decision 704).
 *
 * `auth.handler` copies the auth context, rebuilds every endpoint (their zod schemas included) and a new router on
 * each request (better-auth/better-auth#10188). The per-request part of that copy is only the base URL and the
 * trusted origins and providers, which depend on the request only when they are functions or the base URL is
 * dynamic. Ours are fixed at start-up, so one context copy and one router serve every request. With any of them
 * request-dependent this falls back to `auth.handler`, which stays right for every configuration.
 */
export type AuthHandler = (request: Request) => Promise<Response>;

type RouterContext = Parameters<typeof router>[0];

const handlers = new WeakMap<Auth, AuthHandler>();

export function authHandler(auth: Auth): AuthHandler {
  let handler = handlers.get(auth);
  if (!handler) {
    handler = keptRouterHandler(auth);
    handlers.set(auth, handler);
  }
  return handler;
}

/** True when Better Auth would give every request the same context (its `createBetterAuth` handler's rule). */
export function contextIsFixed(options: Auth["options"]): boolean {
  return (
    typeof options.baseURL === "string" &&
    options.baseURL !== "" &&
    (options.trustedOrigins === undefined || Array.isArray(options.trustedOrigins)) &&
    typeof options.account?.accountLinking?.trustedProviders !== "function"
  );
}

function keptRouterHandler(auth: Auth): AuthHandler {
  if (!contextIsFixed(auth.options)) return (request) => auth.handler(request);
  let built: Promise<{ adapter: RouterContext["adapter"]; handle: AuthHandler }> | undefined;
  const build = async () => {
    const context = await auth.$context;
    // The same copy `auth.handler` makes per request; its trusted origins and providers were resolved without a
    // request at start-up, which for a fixed configuration is what a request would resolve them to.
    const handlerContext = Object.create(Object.getPrototypeOf(context), Object.getOwnPropertyDescriptors(context)) as RouterContext;
    const { handler } = router(handlerContext, auth.options);
    routerBuilds += 1;
    return { adapter: handlerContext.adapter, handle: handler };
  };
  return async (request) => {
    built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    const { adapter, handle } = await built;
    return runWithAdapter(adapter, () => handle(request));
  };
}

let routerBuilds = 0;
/** How many routers this process built (tests check that requests share one). */
export function authRouterBuilds(): number {
  return routerBuilds;
}
