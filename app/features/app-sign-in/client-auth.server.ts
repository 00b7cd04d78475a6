import type Provider from "oidc-provider";

/**
 * A client registered for HTTP Basic (`client_secret_basic`) authenticates that way only, at every endpoint that
 * authenticates clients (token, revocation, introspection). oidc-provider also takes the secret as a form field
 * from such a client; a secret sent another way than registered is refused like a wrong one (401 invalid_client,
 * and it counts toward the wrong-secret limit). The check sits where the provider compares the secret, on this
 * provider's own client class, with the request read from the provider's per-request store.
 */
export async function secretTheRegisteredWayOnly(provider: Provider) {
  const { default: requests } = await import("oidc-provider/lib/helpers/als.js");
  const { Client } = provider as unknown as {
    Client: { prototype: { clientAuthMethod?: string; compareClientSecret(actual: string): Promise<boolean> | boolean } };
  };
  const compare = Client.prototype.compareClientSecret;
  Client.prototype.compareClientSecret = function compareClientSecret(actual) {
    const params = requests.getStore()?.oidc?.params;
    if (this.clientAuthMethod === "client_secret_basic" && params?.client_secret !== undefined) return false;
    return compare.call(this, actual);
  };
}
