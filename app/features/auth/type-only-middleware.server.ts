import { createAuthMiddleware, optionsMiddleware } from "better-auth/api";

/**
 * The middlewares every hook made by `createAuthMiddleware(handler)` runs first: Better Auth's `optionsMiddleware`
 * and an unnamed one beside it. Both answer an empty object; they are there so that TypeScript sees the auth
 * context on a hook's `ctx.context`. Every such hook shares this one array (decision 716).
 */
export const hookMiddlewares = createAuthMiddleware(async () => ({})).options.use ?? [];

/** What `dropTypeOnlyHookMiddlewares` took out, kept so that a test can still call them. */
export const droppedHookMiddlewares: typeof hookMiddlewares = [];

/**
 * Empties `hookMiddlewares`, which drops the two from every hook at once, those made before included (and from the
 * middlewares made the same way that endpoints run: the session and form-CSRF checks). Each still cost a whole
 * endpoint context per call (a Headers object, the input's validation, the context copied): a password sign-in
 * built 49 contexts with them and builds 19 without, a refused one saves a fifth of its CPU. Only the shape
 * checked here is emptied: exactly `optionsMiddleware` and one middleware with no options of its own (that both
 * answer nothing is held by `type-only-middleware.server.test.ts`, so a Better Auth that gives them work fails
 * there). Any other shape is left alone: the hooks then run as Better Auth ships them. Says whether they are gone.
 */
export function dropTypeOnlyHookMiddlewares(): boolean {
  const [first, second, ...rest] = hookMiddlewares;
  if (hookMiddlewares.length === 0) return true;
  const ownOptions = (second as { options?: object } | undefined)?.options;
  const typeOnly = first === optionsMiddleware && ownOptions !== undefined && rest.length === 0 && Object.keys(ownOptions).length === 0;
  if (typeOnly) droppedHookMiddlewares.push(...hookMiddlewares.splice(0));
  return typeOnly;
}
