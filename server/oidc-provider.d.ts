// oidc-provider ships no types; this declares the part the site uses (the development identity provider in
// server/, the app's OpenID provider in app/features/app-sign-in/).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** A record the provider stores through an adapter (token, code, grant, session, interaction). */
  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
    accountId?: string;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  interface Grant {
    jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    getOIDCScope(): string;
    /** A new id (what `save` gives a grant that has none yet). */
    generateTokenId(): string;
    /** The scopes granted for one API (a resource indicator, RFC 8707). */
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  interface Client {
    clientId: string;
    clientName?: string;
    /** How the client authenticated at this request (`none` for a public app). */
    clientAuthMethod?: string;
  }

  interface KoaContext {
    oidc: {
      provider: Provider;
      client?: Client;
      session?: { accountId?: string; acr?: string };
      params?: Record<string, unknown>;
      route?: string;
    };
  }

  /** A request inside the provider (a grant handler's argument). */
  export interface KoaContextWithOIDC {
    oidc: KoaContext["oidc"] & { params?: Record<string, unknown>; entities: Record<string, unknown> };
    body: unknown;
  }

  /** A request as the provider's own middleware sees it (Koa's context). */
  export interface ProviderContext {
    oidc?: { route?: string };
    status: number;
    body: unknown;
    set(name: string, value: string): void;
  }

  /** The provider's OAuth errors (each answered with its status and `error` code). */
  export const errors: {
    InvalidGrant: new (detail?: string) => Error & { error_detail?: string };
    InvalidClientAuth: new (detail?: string) => Error & { error_detail?: string };
    InvalidTarget: new (detail?: string) => Error & { error_detail?: string };
    SlowDown: new (detail?: string) => Error & { error_detail?: string };
  };

  /** One check of a prompt: asks for the interaction when `check` answers REQUEST_PROMPT (true). */
  class Check {
    constructor(reason: string, description: string, error: string, check: (ctx: KoaContextWithOIDC) => boolean);
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }
  /** The provider's prompts (login, consent) and their checks. */
  interface InteractionPolicy {
    get(name: string): { checks: { add(check: Check): void } } | undefined;
  }
  export const interactionPolicy: { base(): InteractionPolicy; Check: typeof Check };

  /** The API an access token is for (features.resourceIndicators.getResourceServerInfo). */
  interface ResourceServer {
    scope: string;
    audience?: string;
    accessTokenFormat?: "opaque" | "jwt";
    accessTokenTTL?: number;
    jwt?: { sign?: { alg: string } };
  }

  /** The features the site turns on, as far as it configures them. */
  interface Features {
    resourceIndicators?: {
      enabled: boolean;
      defaultResource?(ctx: KoaContext, client: Client, oneOf?: string[]): Promise<string | string[] | undefined>;
      useGrantedResource?(ctx: KoaContext, model: unknown): Promise<boolean>;
      getResourceServerInfo?(ctx: KoaContext, resource: string, client: Client): Promise<ResourceServer>;
    };
    introspection?: { enabled: boolean; allowedPolicy?(ctx: KoaContext, client: Client, token: { clientId?: string }): Promise<boolean> };
    [feature: string]: unknown;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown>; reasons: string[] };
    params: Record<string, string | undefined> & { client_id: string; scope?: string };
    session?: { accountId?: string };
    grantId?: string;
    /** When the interaction began (seconds). */
    iat?: number;
  }

  interface StoredToken {
    accountId: string;
    clientId: string;
    scope?: string;
    grantId?: string;
    isExpired: boolean;
  }

  export type Configuration = Record<string, unknown> & {
    interactions?: { url(ctx: KoaContext, interaction: { uid: string }): string; policy?: InteractionPolicy };
    features?: Features;
    extraTokenClaims?(ctx: KoaContext, token: { grantId?: string }): Promise<Record<string, unknown> | undefined>;
    loadExistingGrant?(ctx: KoaContext): Promise<Grant | undefined>;
    findAccount?(
      ctx: KoaContext,
      id: string,
      token?: { grantId?: string },
    ): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> } | undefined>;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: {
      new (properties: { clientId?: string; accountId?: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    Client: { find(id: string): Promise<Client | undefined> };
    AccessToken: { find(value: string): Promise<StoredToken | undefined> };
    proxy: boolean;
    on(event: string, listener: (...args: unknown[]) => void): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    registerGrantType(name: string, handler: (ctx: KoaContextWithOIDC) => Promise<void>, parameters?: string[], dupes?: string[]): void;
    /** Koa's switch for its default stderr error printing. */
    silent: boolean;
    on(event: "server_error", listener: (ctx: KoaContext, error: Error) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
