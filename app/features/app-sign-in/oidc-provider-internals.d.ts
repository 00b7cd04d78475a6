// oidc-provider's per-instance state, read once to wrap its own grant handlers (refresh-rotation.server.ts).
declare module "oidc-provider/lib/helpers/weak_cache.js" {
  const internals: (provider: object) => { grantTypeHandlers: Map<string, unknown> };
  export default internals;
}
