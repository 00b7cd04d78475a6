import { createHash } from "node:crypto";
import { escapeHtml } from "~/lib/escape-html";

/**
 * The provider's own pages, in Traditional Chinese: the consent screen of a third-party app, the confirmation of an
 * app's sign-out, the signed-out page and the error page. Plain HTML with one inline style (allowed by its hash)
 * and no script; the sign-in itself is the site's own screens.
 */
const pageStyle = `body{font-family:-apple-system,"PingFang TC","Noto Sans TC","Microsoft JhengHei",sans-serif;line-height:1.7;margin:0;padding:2rem 1rem;background:#eef1ff;color:#1f2430}
main{max-width:24rem;margin:0 auto;background:#fff;border-radius:16px;padding:2rem 1.5rem}ul{padding-left:1.25rem}
button,a.button{display:block;box-sizing:border-box;width:100%;padding:.75rem;border-radius:10px;font:inherit;font-weight:600;border:2px solid #3b5bdb;cursor:pointer;margin-top:.75rem;text-align:center;text-decoration:none}
.primary{background:#3b5bdb;color:#fff}.secondary{background:#fff;color:#3b5bdb}`;

const styleHash = `'sha256-${createHash("sha256").update(pageStyle).digest("base64")}'`;

/** The CSP of these pages; `formTargets` are where a form on them may lead (the apps' redirect addresses). */
export function pagePolicy(formTargets: readonly string[]): string {
  return `default-src 'none'; style-src ${styleHash}; form-action 'self' ${formTargets.join(" ")}; frame-ancestors 'none'; base-uri 'none'`.replace(/ {2,}/g, " ");
}

export function page(productName: string, title: string, body: string): string {
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${escapeHtml(productName)}</title><style>${pageStyle}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const scopeWords: Record<string, string> = {
  openid: "知道你是誰（你的帳號代號）",
  profile: "你的名稱與大頭貼",
  email: "你的電子郵件地址，以及它是否已驗證",
  offline_access: "在你沒有開啟它時保持登入",
  family: "你的家庭：家庭名稱、家長的名稱與電子郵件，以及孩子的名字、大頭貼和出生年",
  "account:delete": "幫你開始刪除帳號（會帶你到本網站，由你確認後才刪除）",
};

export function consentPage(productName: string, input: { appName: string; userName: string; scopes: string[]; action: string }): string {
  const items = input.scopes.map((scope) => `<li>${escapeHtml(scopeWords[scope] ?? scope)}</li>`).join("");
  return page(
    productName,
    "授權應用程式",
    `<p>「${escapeHtml(input.appName)}」想以你的${escapeHtml(productName)}帳號（${escapeHtml(input.userName)}）登入，並取得：</p>
<ul>${items}</ul><p>你可以隨時在「帳號安全」結束它的登入。</p>
<form method="post" action="${escapeHtml(input.action)}">
<button class="primary" type="submit" name="decision" value="allow">允許</button>
<button class="secondary" type="submit" name="decision" value="deny">拒絕</button></form>`,
  );
}

/**
 * The provider's own form (its hidden anti-forgery field) is kept; this page says which app signs out and offers a
 * way back without signing out (`cancelHref`: the app's web address, else the site).
 */
export function logoutPage(productName: string, providerForm: string, input: { appName: string | null; cancelHref: string }): string {
  const form = providerForm.replace("</form>", `<button class="primary" type="submit">登出應用程式</button></form>`);
  const which = input.appName ? `「${escapeHtml(input.appName)}」` : "這個應用程式";
  return page(
    productName,
    "登出應用程式",
    `<p>確定要登出${which}嗎？你在網站上的登入不受影響。</p>${form}<a class="button secondary" href="${escapeHtml(input.cancelHref)}">取消</a>`,
  );
}

export function signedOutPage(productName: string): string {
  return page(productName, "已登出應用程式", `<p>應用程式已登出。</p><a class="button secondary" href="/">回到首頁</a>`);
}

const errorWords: Record<string, string> = {
  invalid_redirect_uri: "這個應用程式提供的返回網址沒有登記，為了保護你的帳號，登入已停止。",
  invalid_client: "找不到這個應用程式，請確認你使用的是正式版本。",
  invalid_request: "登入要求不完整或格式不正確，請回到應用程式重新登入。",
  session_not_found: "這次登入已逾時或已完成，請回到應用程式重新登入。",
  temporarily_unavailable: "服務暫時無法使用，請稍等幾秒後重新整理這一頁。",
};

export function errorPage(productName: string, code: string): string {
  const message = errorWords[code] ?? "登入時發生問題，請回到應用程式重新登入。";
  return page(productName, "無法登入應用程式", `<p>${escapeHtml(message)}</p><p>錯誤代碼：${escapeHtml(code)}</p><a class="button secondary" href="/">回到首頁</a>`);
}
