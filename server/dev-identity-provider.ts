import { createHash } from "node:crypto";
import { Hono } from "hono";
import type Provider from "oidc-provider";
import type { AuthService } from "~/features/auth/index.server";
import { escapeHtml } from "~/lib/escape-html";
import { answeredByNode, answerWithNode, nodeBindings } from "~/services/node-bindings.server";
import { noteRequestError } from "~/services/request-context.server";
import { sharedDevRecords, sharedDevSigningKey } from "./dev-identity-records";

/**
 * The development identity provider (PRODUCT §6): a real OpenID Connect issuer (oidc-provider) at
 * /dev-oidc, so development sign-in takes the same OAuth code path as Google or LINE. Its sign-in page asks
 * only for an email and signs in as that address. It exists only on a loopback site with no real provider.
 */
export function devIdentityProviderRoutes(service: AuthService) {
  const routes = new Hono();
  let provider: Promise<Provider> | undefined;
  const getProvider = () => (provider ??= createProvider(service));

  // Pages inside the sign-in pop-up carry no COOP, like the callback page, so the pop-up keeps its opener.
  routes.use(async (c, next) => {
    c.header("Cross-Origin-Opener-Policy", "unsafe-none");
    await next();
    if ((c.res.headers.get("content-type") ?? "").includes("text/html") && c.req.path.includes("/interaction/")) {
      c.header("Content-Security-Policy", pagePolicy);
    }
  });

  routes.get("/interaction/:uid", async (c) => {
    const { incoming, outgoing } = nodeBindings(c);
    const details = await (await getProvider()).interactionDetails(incoming, outgoing).catch(unknownInteraction);
    if (!details) return c.html(expiredPage, 404);
    return c.html(signInPage(service.env.PRODUCT_NAME, details.uid));
  });

  routes.post("/interaction/:uid", async (c) => {
    const { incoming, outgoing } = nodeBindings(c);
    const oidc = await getProvider();
    // An interaction this provider never started (or one that expired) is the sender's mistake: 404, no stack.
    if (!(await oidc.interactionDetails(incoming, outgoing).catch(unknownInteraction))) return c.html(expiredPage, 404);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const email = String(form.email ?? "").trim().toLowerCase();
    if (form.action === "cancel") {
      await oidc.interactionFinished(incoming, outgoing, { error: "access_denied", error_description: "使用者取消登入" }, { mergeWithLastSubmission: false });
      return answeredByNode(c);
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return c.html(signInPage(service.env.PRODUCT_NAME, c.req.param("uid"), "請輸入有效的電子郵件地址"), 400);
    }
    await oidc.interactionFinished(incoming, outgoing, { login: { accountId: email } }, { mergeWithLastSubmission: false });
    return answeredByNode(c);
  });

  // Everything else (discovery, authorize, token, userinfo, keys) is oidc-provider's own Koa app.
  routes.all("*", async (c) => {
    const { incoming } = nodeBindings(c);
    const oidc = await getProvider();
    // Mounted like Express does it: the provider sees the path below /dev-oidc and learns the prefix.
    incoming.originalUrl = incoming.url;
    incoming.url = (incoming.url ?? "/").replace(/^\/dev-oidc/, "") || "/";
    await answerWithNode(c, oidc.callback());
    return answeredByNode(c);
  });
  return routes;
}

/**
 * Requests whose body oidc-provider reads from Node's request itself: the host must not build a web Request for
 * them (the body check would), which drains the body while the provider is still being made.
 */
export const devProviderReadsBody = (path: string) => path.startsWith("/dev-oidc/") && !path.startsWith("/dev-oidc/interaction/");

/** oidc-provider's refusal of an unknown or expired interaction (SessionNotFound and its kin, all 4xx): null. */
function unknownInteraction(error: unknown): null {
  const status = (error as { statusCode?: number }).statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return null;
  throw error;
}

const expiredPage = `<!doctype html><html lang="zh-Hant-TW"><meta charset="utf-8"><title>登入連結已失效</title><main><h1>登入連結已失效</h1><p>請關閉這個視窗，回到網站再按一次登入。</p></main></html>`;

async function createProvider(service: AuthService): Promise<Provider> {
  const { default: OidcProvider } = await import("oidc-provider");
  const client = service.devIdentityProvider;
  if (!client) throw new Error("development identity provider is off");
  const site = service.env.SITE_URL;
  const { db } = service.database;
  const signingKey = await sharedDevSigningKey(db);
  const oidc = new OidcProvider(`${site}/dev-oidc`, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [`${site}/api/auth/oauth2/callback/dev`, client.callbackUrl],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [service.env.AUTH_SECRET ?? "development-identity-provider-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    adapter: sharedDevRecords(db),
    // Short lives, stated explicitly (oidc-provider logs a notice for every default it has to pick).
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    interactions: { url: (_ctx, interaction) => `/dev-oidc/interaction/${interaction.uid}` },
    // Every development sign-in is consented to: the page above is the whole interaction.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client?.clientId, accountId: ctx.oidc.session?.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }),
    }),
  });
  // Koa would print every error's stack to stderr; the site logs JSON only: 5xx through the request log, the rest
  // are the client's mistakes and answered as such.
  oidc.silent = true;
  oidc.on("server_error", (_ctx, error) => noteRequestError(error));
  return oidc;
}

const pageStyle = `body{font-family:-apple-system,"PingFang TC","Noto Sans TC","Microsoft JhengHei",sans-serif;line-height:1.7;margin:0;padding:2rem 1rem;background:#eef1ff;color:#1f2430}
main{max-width:22rem;margin:0 auto;background:#fff;border-radius:16px;padding:2rem 1.5rem}label{display:block;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.75rem;margin:.25rem 0 1rem;border:1px solid #dde1ee;border-radius:10px;font:inherit}
button{width:100%;padding:.75rem;border-radius:10px;font:inherit;font-weight:600;border:2px solid #3b5bdb;cursor:pointer;margin-top:.5rem}
.primary{background:#3b5bdb;color:#fff}.secondary{background:#fff;color:#3b5bdb}.error{color:#c62828}`;
// The page's one inline style, allowed by its hash (this page is not React's, so it has no nonce).
const pagePolicy = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(pageStyle).digest("base64")}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

function signInPage(productName: string, uid: string, error?: string): string {
  const action = `/dev-oidc/interaction/${escapeHtml(uid)}`;
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>開發測試帳號登入 | ${escapeHtml(productName)}</title>
<style>${pageStyle}</style></head>
<body><main><h1>開發測試帳號登入</h1><p>這是開發環境的測試用身分提供者。輸入任一電子郵件即可以該帳號登入。</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${action}"><label for="email">電子郵件</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button class="primary" type="submit" name="action" value="login">繼續</button>
<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>取消</button></form></main></body></html>`;
}
