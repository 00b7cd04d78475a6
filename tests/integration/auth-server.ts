import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { parseEnv } from "~/config/env.server";
import { createAuthService, type AuthService } from "~/features/auth/index.server";
import { listMailbox, type MailboxEntry } from "~/features/mail/mailbox.server";
import { runWithRequestContext } from "~/services/request-context.server";
import type { IdentityRecord } from "~/features/auth";
import { authRoutes } from "~server/auth-routes";
import type { TestDatabase } from "~tests/helpers/databases";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

export interface AuthTestServer {
  baseURL: string;
  service: AuthService;
  client(options?: { ip?: string; origin?: string; userAgent?: string }): AuthTestClient;
  /** Waits for the newest email to `to` (mail goes out in the background). */
  latestMail(to: string, subject?: RegExp): Promise<MailboxEntry>;
  close(): Promise<void>;
}

/**
 * The sign-in layer's routes on a real HTTP server (port 0) over a test database; its mail is read straight
 * from the development mailbox. 127.0.0.1 is a trusted proxy here, so each client can present its own address
 * in X-Forwarded-For and tests never share a bucket.
 */
export async function startAuthServer(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: { rateLimitPrefix?: string; routes?: (service: AuthService) => Hono } = {},
): Promise<AuthTestServer> {
  // The server must listen before the site's URL (with its port) is known; requests wait for the app.
  const target: { app?: Hono } = {};
  const server: ServerType = await new Promise((resolve) => {
    const listening = serve(
      { fetch: (request, bindings) => (target.app ? target.app.fetch(request, bindings) : new Response("starting", { status: 503 })), port: 0, hostname: "127.0.0.1" },
      () => resolve(listening),
    );
  });
  const port = (server.address() as AddressInfo).port;
  const baseURL = `http://localhost:${port}`;
  const service = createAuthService({
    // The bot check off unless a test asks for it (tests/integration/bot-check.test.ts): the others sign up
    // and ask for mail through the API by the hundred.
    // The provider's endpoints hold themselves to REQUEST_DEADLINE_MS: 30 s here, as for the fault tests' sites, so
    // a loaded machine is not taken for a slow database (tests/faults/app-sign-in-outages.test.ts tests the 5 s).
    env: parseEnv({ SITE_URL: baseURL, TRUSTED_PROXIES: "127.0.0.1", REDIS_URL: "", BOT_CHECK: "off", REQUEST_DEADLINE_MS: "30000", ...env }),
    database: database.handle,
    rateLimitPrefix: options.rateLimitPrefix,
  });
  // Each request in a request context of its own, as the site's request log gives it (a password sign-in's hash
  // begun early is kept there, decision 715).
  let requests = 0;
  const app = new Hono().use((_c, next) => runWithRequestContext({ id: `test-${(requests += 1)}`, errors: [] }, next)).route("/", authRoutes(service));
  // Other features mounted beside the sign-in layer (file storage), on the same service and database.
  if (options.routes) app.route("/", options.routes(service));
  target.app = app;

  let nextIp = 1;
  return {
    baseURL,
    service,
    client: ({ ip, origin, userAgent } = {}) =>
      new AuthTestClient(baseURL, ip ?? `10.${port % 250}.${Math.floor(nextIp / 250)}.${nextIp++ % 250}`, origin ?? baseURL, userAgent),
    async latestMail(to, subject) {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const mails = await listMailbox(service.database.db, to);
        const match = mails.find((mail) => !subject || subject.test(mail.subject));
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to}`);
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await service.close();
    },
  };
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser stand-in: keeps cookies, sends the site's Origin, its own client address and, if given, a User-Agent. */
export class AuthTestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseURL: string,
    readonly ip: string,
    private readonly origin: string,
    private readonly userAgent?: string,
  ) {}

  async request<T = Record<string, unknown>>(method: "GET" | "POST", path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...extraHeaders, origin: this.origin, "x-forwarded-for": this.ip };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.userAgent) headers["user-agent"] = this.userAgent;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(`${this.baseURL}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (a redirect or an HTML page)
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** `headers`: more request headers (a bot check's answer). */
  post<T = Record<string, unknown>>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>("POST", `/api/auth${path}`, body, headers);
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>("GET", `/api/auth${path}`);
  }

  async me() {
    const answer = await this.get<{ user: IdentityRecord | null }>("/me");
    return answer.body.user;
  }
}

/**
 * A solved bot check as a browser's form sends it (the `X-Bot-Check` header): the site's own challenge, fetched with
 * `get` (a path under /api/auth), solved (bot-check.server.ts).
 */
export async function solvedBotCheck(get: (path: string) => Promise<Response>): Promise<string> {
  const task = (await (await get("/bot-check/challenge")).json()) as { kind: string; challenge: Challenge };
  if (task.kind !== "proof-of-work") throw new Error(`the site's bot check is ${task.kind}`);
  const solution = await solveChallenge({ challenge: task.challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge: task.challenge, solution })).toString("base64");
}
