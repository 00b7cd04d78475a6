// oidc-provider ships no types; this declares the small part the development identity provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface KoaContext {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }

  interface Configuration {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: Array<Record<string, unknown>> };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    features: Record<string, { enabled: boolean }>;
    ttl: Record<string, number>;
    interactions: { url(ctx: KoaContext, interaction: { uid: string }): string };
    loadExistingGrant(ctx: KoaContext): Promise<Grant>;
    findAccount(
      ctx: KoaContext,
      id: string,
    ): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> }>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: new (properties: { clientId?: string; accountId?: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    /** Koa's switch for its default stderr error printing. */
    silent: boolean;
    on(event: "server_error", listener: (ctx: KoaContext, error: Error) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
