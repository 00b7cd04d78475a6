import { Hono, type Context } from "hono";
import type Provider from "oidc-provider";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { escapeHtml } from "~/lib/escape-html";
import { requestClientIp } from "~/services/client-ip.server";
import { childWithFamily, familyForApp } from "~/features/family/family-claims.server";
import { recordDeviceAdded } from "~/features/family/family-devices.server";
import { startGrantSession, type AppSessions } from "./app-sessions.server";
import { sessionIdOf } from "./access-tokens.server";
import { familyScope } from "./app-scopes.server";
import { page, pagePolicy } from "./provider-pages.server";
import type { RegisteredClients } from "./registered-clients.server";
import type { RateLimiter } from "~/services/rate-limiter.server";
import { nodeBindings } from "~/services/node-bindings.server";
import { resolveClientIp, trustedProxyList } from "~/services/client-ip.server";

/**
 * A child's tablet joins the family by QR code: the OAuth 2.0 Device Authorization Grant (RFC 8628). The tablet asks
 * the provider for a device code (/oidc/device/auth) and shows the QR code of `verification_uri_complete`; a parent
 * signed in on the site opens it (or types the code at /device), picks which child the tablet is for and approves.
 * The tablet's tokens are then the child's (`sub` = the child's id), with only the scopes a child's device may
 * have. The grant lives by a session row of the approving parent (app-sessions.server.ts), kept against the child
 * in the family's record, so every parent of the family sees the tablet (家庭, 帳號安全) and ending it anywhere, or
 * removing the child, ends it on every instance at once.
 */
export const devicePath = "/device";

/** What a child's tablet may be granted: its family (no parent's address), never email or the parents' files. */
export const childDeviceScopes = ["openid", "profile", "offline_access", familyScope];

/** The provider's device-flow settings: its user-code pages are ours (/device), so its own are never reached. */
export const deviceFlowFeature = { enabled: true, charset: "base-20", mask: "****-****" } as const;

/** The provider's account of a child's tablet: the child, its family, and no address or role of a parent. */
export async function childAccount(database: DatabaseHandle, id: string) {
  const found = await childWithFamily(database.db, id);
  if (!found) return undefined;
  return { accountId: id, claims: async () => ({ sub: id, name: found.child.name, family: found.family, child: found.child }) };
}

export interface DeviceRoutesDependencies {
  env: ServerEnv;
  database: DatabaseHandle;
  appProvider(): Promise<{ provider: Provider; sessions: AppSessions; clients: RegisteredClients; lifetimes: { Grant: number } }>;
  sessionUser(headers: Headers): Promise<{ id: string; isAnonymous: boolean } | null>;
  /**
   * Wrong or expired codes typed at /device, per address and per signed-in parent (RFC 8628 section 5.1: a user code is
   * short enough to guess, so its entry is limited); a code that finds its tablet is not counted.
   */
  codeGuesses: { perAddress: RateLimiter; perAccount: RateLimiter };
}

/** The wait in words: 「30 秒」, 「4 分鐘」. */
const inWords = (seconds: number) => (seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分鐘`);

const normalize = (input: string) => input.toUpperCase().replace(/\W/g, "");
/** The code as the tablet shows it (`HNSJ-QMCR`), however the parent typed it (`hnsjqmcr`). */
export const shownUserCode = (input: string) => normalize(input).replace(/^(.{4})(.{4})$/, "$1-$2");

/** The provider's stored device code (its typings leave the model out). */
interface DeviceCodeRecord {
  clientId: string;
  isExpired: boolean;
  accountId?: string;
  error?: string;
  params?: { scope?: string };
  save(): Promise<string>;
}
const deviceCodes = (provider: Provider) => (provider as unknown as { DeviceCode: { findByUserCode(code: string): Promise<DeviceCodeRecord | undefined> } }).DeviceCode;

/** GET /device (type the code, or arrive with it from the QR code) and POST /device (approve for one child). */
export function deviceRoutes({ env, database, appProvider, sessionUser, codeGuesses }: DeviceRoutesDependencies) {
  const brand = { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, siteUrl: env.SITE_URL };
  const show = (c: Context, title: string, body: string, status: 200 | 400 | 403 | 404 | 429 = 200) => {
    c.header("Content-Security-Policy", pagePolicy([]));
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    return c.html(page(env.PRODUCT_NAME, title, body), status);
  };
  const codeForm = (message = "") =>
    `${message ? `<p role="alert">${escapeHtml(message)}</p>` : ""}<p>請輸入孩子平板上顯示的 8 碼代碼（例如 ABCD-EFGH），或用手機掃描平板上的 QR 碼。</p>
<form method="get" action="${devicePath}"><label for="user_code">平板上的代碼</label><br><input id="user_code" name="user_code" autocomplete="off" autocapitalize="characters" maxlength="12" required placeholder="ABCD-EFGH"><button class="primary" type="submit">下一步</button></form>`;

  const pendingCode = async (userCode: string) => {
    const { provider } = await appProvider();
    const code = userCode ? await deviceCodes(provider).findByUserCode(normalize(userCode)) : undefined;
    return code && !code.isExpired && !code.accountId && !code.error ? code : undefined;
  };

  const proxies = trustedProxyList(env.TRUSTED_PROXIES);
  /**
   * The pending code typed by `parent`, or the answer to give instead: 429 once this address or this parent has
   * typed too many wrong codes (checked before looking, so a guess over the limit learns nothing), else 404.
   */
  const lookUp = async (c: Context, parentId: string, userCode: string): Promise<{ code: DeviceCodeRecord } | { refused: Response }> => {
    const address = resolveClientIp(nodeBindings(c).incoming.socket.remoteAddress, c.req.header("x-forwarded-for"), proxies);
    const [byAddress, byAccount] = await Promise.all([codeGuesses.perAddress.check(address), codeGuesses.perAccount.check(parentId)]);
    const over = [byAddress, byAccount].filter((decision) => !decision.allowed);
    if (over.length) {
      const wait = Math.max(...over.map((decision) => decision.retryAfterSeconds));
      c.header("Retry-After", String(wait));
      return { refused: show(c, "請稍後再試", codeForm(`代碼輸入錯誤的次數太多了。為了保護孩子的帳號，請在 ${inWords(wait)}後再試。`), 429) };
    }
    const code = await pendingCode(userCode);
    if (code) return { code };
    await Promise.all([codeGuesses.perAddress.hit(address), codeGuesses.perAccount.hit(parentId)]);
    return { refused: show(c, "讓孩子的平板加入家庭", codeForm("這個代碼無效或已過期，請在平板上重新產生一個。"), 404) };
  };

  return new Hono()
    .get(devicePath, async (c) => {
      const userCode = c.req.query("user_code") ?? "";
      if (!userCode) return show(c, "讓孩子的平板加入家庭", codeForm());
      const parent = await sessionUser(c.req.raw.headers);
      if (!parent || parent.isAnonymous) {
        const back = `${devicePath}?user_code=${encodeURIComponent(userCode)}`;
        return show(c, "讓孩子的平板加入家庭", `<p>請先以家長帳號登入，登入後會回到這一頁。</p><a class="button primary" href="/login?redirectTo=${encodeURIComponent(back)}">登入</a>`);
      }
      const found = await lookUp(c, parent.id, userCode);
      if ("refused" in found) return found.refused;
      const { code } = found;
      const family = await familyForApp(database.db, parent.id);
      if (!family || family.children.length === 0) {
        return show(c, "讓孩子的平板加入家庭", `<p>請先在「家庭」頁面新增孩子的資料，再回來讓平板加入。</p><a class="button primary" href="/account/family">前往家庭頁面</a>`);
      }
      const { clients } = await appProvider();
      const choices = family.children
        .map((child, index) => `<p><input type="radio" id="child-${index}" name="child" value="${escapeHtml(child.id)}"${index === 0 ? " checked" : ""}><label for="child-${index}">${escapeHtml(child.name)}（${child.birthYear} 年生）</label></p>`)
        .join("");
      return show(
        c,
        "這台平板是誰的？",
        `<p>「${escapeHtml(clients.displayName(code.clientId))}」在平板上顯示代碼 <strong>${escapeHtml(shownUserCode(userCode))}</strong>。請確認代碼相同，再選擇要讓哪個孩子使用這台平板。</p>
<form method="post" action="${devicePath}"><input type="hidden" name="user_code" value="${escapeHtml(userCode)}"><fieldset><legend>孩子</legend>${choices}</fieldset>
<p>平板只能看到這個孩子和家庭的資料，不能使用家長的檔案或帳號設定。家庭裡的每位家長都可以隨時在「家庭」或「帳號安全」結束它的登入。</p>
<button class="primary" type="submit">允許這台平板</button></form>`,
      );
    })
    .post(devicePath, async (c) => {
      if (c.req.header("origin") !== new URL(env.SITE_URL).origin) return show(c, "無法完成", "<p>只接受本網站送出的表單。</p>", 403);
      const parent = await sessionUser(c.req.raw.headers);
      if (!parent || parent.isAnonymous) return show(c, "無法完成", "<p>請先以家長帳號登入。</p>", 403);
      const form = await c.req.parseBody();
      const userCode = typeof form.user_code === "string" ? form.user_code : "";
      const childId = typeof form.child === "string" ? form.child : "";
      const found = await lookUp(c, parent.id, userCode);
      if ("refused" in found) return found.refused;
      const { code } = found;
      const family = await familyForApp(database.db, parent.id);
      const child = family?.children.find((candidate) => candidate.id === childId);
      if (!child) return show(c, "無法完成", "<p>找不到這個孩子的資料。</p>", 404);

      const { provider, sessions, clients, lifetimes } = await appProvider();
      const clientId = code.clientId;
      const requested = (code.params?.scope ?? "openid").split(" ");
      const scope = childDeviceScopes.filter((allowed) => allowed === "openid" || requested.includes(allowed)).join(" ");
      const grant = new provider.Grant({ accountId: child.id, clientId });
      grant.addOIDCScope(scope);
      // The one client-address function: a client's own X-Client-IP (or X-Real-IP, Forwarded…) is never read.
      const ipAddress = requestClientIp(c, env.TRUSTED_PROXIES);
      const appName = `${child.name}的平板・${clients.displayName(clientId)}`;
      const grantId = await startGrantSession(grant, () => sessions.start({ grantId: grant.jti, userId: parent.id, appName, ipAddress, lifetimeSeconds: lifetimes.Grant }));
      // `sid` names the tablet's sign-in in its ID token, as in every other (access-tokens.server.ts: sessionIdOf).
      Object.assign(code, { accountId: child.id, grantId, scope, authTime: Math.floor(Date.now() / 1000), sid: sessionIdOf(grantId) });
      await code.save();
      await recordDeviceAdded(database.db, brand, { id: parent.id }, child.id, grantId, appName);
      return show(c, "平板已加入家庭", `<p>「${escapeHtml(child.name)}」的平板已加入家庭，平板上的 App 會自動繼續。</p><a class="button secondary" href="/account/security">到「帳號安全」查看</a>`);
    });
}
