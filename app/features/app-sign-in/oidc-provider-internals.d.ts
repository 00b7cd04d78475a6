// oidc-provider's per-instance state, read once to wrap its own grant handlers (refresh-rotation.server.ts).
declare module "oidc-provider/lib/helpers/weak_cache.js" {
  const internals: (provider: object) => {
    grantTypeHandlers: Map<string, unknown>;
    grantTypeParams: Map<string | undefined, Set<string>>;
    grantTypeDupes: Map<string, Set<string>>;
  };
  export default internals;
}

// The provider's per-request store (the request being answered), read where a client's secret is compared (client-auth.server.ts).
declare module "oidc-provider/lib/helpers/als.js" {
  import type { AsyncLocalStorage } from "node:async_hooks";
  const requests: AsyncLocalStorage<{ oidc?: { params?: Record<string, unknown> } }>;
  export default requests;
}
