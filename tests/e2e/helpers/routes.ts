import { fixedAddress, routeMap, type RouteEntry } from "~/lib/route-map";
import { unknownId } from "~tests/helpers/route-addresses.mjs";

/**
 * What the end-to-end tests expect of each page of the route map (app/lib/route-map.ts), opened signed out: every
 * screen and development-tool page must have an entry here, keyed by its route path, or `routeExpectations` throws
 * and the route test names it (tests/integration/route-map.test.ts checks the same without a browser).
 */
export interface Visit {
  /** The concrete address opened: the route's own, or an example for a pattern. */
  path: string;
  title: string;
  /** The first <h1>'s text. */
  heading: string;
  status?: number;
  /** Where a signed-out visitor ends up when the screen sends them on (to sign in). */
  landsOn?: string;
}

const notFound = { title: "找不到頁面", heading: "找不到頁面", status: 404 };
const signInFirst = { title: "登入", heading: "登入", landsOn: "/login" };
const same = (path: string, title: string): Visit => ({ path, title, heading: title });

export const visitsByRoute: Record<string, Visit[]> = {
  login: [same("/login", "登入")],
  "login/two-step": [same("/login/two-step", "兩步驟驗證")],
  "login/email-link": [same("/login/email-link", "用電子郵件連結登入")],
  "login/phone": [same("/login/phone", "用手機號碼登入")],
  "login/email-code": [same("/login/email-code", "用電子郵件驗證碼登入")],
  signup: [same("/signup", "註冊")],
  "email-verification": [same("/email-verification", "驗證電子郵件")],
  "forgot-password": [same("/forgot-password", "忘記密碼")],
  "reset-password": [same("/reset-password", "重設密碼")],
  "verify-email": [same("/verify-email", "電子郵件驗證")],
  "firebase-test": [same("/firebase-test", "登入服務自我檢測")],
  "dev/mailbox": [same("/dev/mailbox", "開發用信箱")],
  "": [{ path: "/", title: "首頁", heading: "讓孩子在遊戲中，養成獨立與負責的好習慣" }],
  features: [same("/features", "功能介紹")],
  pricing: [same("/pricing", "免費方案")],
  "current-plan": [same("/current-plan", "目前方案")],
  "wishing-well": [same("/wishing-well", "許願池")],
  "wishing-well/unsubscribe": [same("/wishing-well/unsubscribe", "取消許願池通知")],
  "wishing-well/:id": [{ path: `/wishing-well/${unknownId}`, ...notFound }],
  faq: [same("/faq", "常見問題")],
  about: [same("/about", "關於我們")],
  tutorial: [same("/tutorial", "使用教學")],
  "learning-resources": [same("/learning-resources", "學習資源")],
  "learning-resources/*": [
    { path: "/learning-resources/habits", title: "習慣養成｜學習資源", heading: "習慣養成" },
    { path: "/learning-resources/no-such-topic", title: "找不到這個主題", heading: "找不到這個主題", status: 404 },
  ],
  blog: [same("/blog", "家長學堂"), { path: "/blog?page=2", title: "家長學堂（第 2 頁）", heading: "家長學堂" }],
  "blog/:id": [
    same("/blog/chores-by-age", "依年齡分配家務：2 到 12 歲孩子做得到的事"),
    { ...same("/blog/no-such-article", "找不到這篇文章"), status: 404 },
  ],
  "dev-blog": [same("/dev-blog", "開發日誌")],
  "dev-blog/create": [{ path: "/dev-blog/create", ...signInFirst }],
  "dev-blog/:id": [{ ...same("/dev-blog/no-such-post", "找不到這篇開發日誌"), status: 404 }],
  "dev-blog/:id/edit": [{ path: "/dev-blog/x/edit", ...signInFirst }],
  news: [same("/news", "最新消息")],
  "news/:id": [same("/news/guest-mode", "訪客模式上線：不用註冊，也能先試用")],
  privacy: [same("/privacy", "隱私權政策")],
  terms: [same("/terms", "服務條款")],
  ironman2025: [same("/ironman2025", "技術文章")],
  "task-scheduler": [same("/task-scheduler", "免費任務表")],
  "account-deletion": [same("/account-deletion", "刪除帳號")],
  account: [same("/account", "帳號設定")],
  "account/security": [same("/account/security", "帳號安全")],
  "account/confirm-identity": [same("/account/confirm-identity", "確認身分")],
  "account/data": [same("/account/data", "我的資料")],
  "account/two-step": [same("/account/two-step", "兩步驟驗證")],
  "account/passkeys": [same("/account/passkeys", "密碼金鑰")],
  "account/family": [same("/account/family", "家庭")],
  "account/family/join": [same("/account/family/join", "加入家庭")],
  // The operator's console answers everyone else as if it did not exist.
  admin: [{ path: "/admin", ...notFound }],
  "admin/users/:id": [{ path: "/admin/users/x", ...notFound }],
  "*": [{ path: "/no-such-page", ...notFound }],
};

/** Whether the end-to-end tests open a route in a browser: screens and development-tool pages. */
export const isPage = (entry: RouteEntry) => entry.kind === "screen" || (entry.kind === "dev-tool" && entry.page);

/** The route map's pages with no entry in `visitsByRoute`, and entries for no page of the route map. */
export function unmatchedVisits(): { missing: string[]; unknown: string[] } {
  const pages = routeMap.filter(isPage).map((entry) => entry.path);
  return {
    missing: pages.filter((path) => !visitsByRoute[path]?.length),
    unknown: Object.keys(visitsByRoute).filter((path) => !pages.includes(path)),
  };
}

const hasLayout = (entry: RouteEntry | undefined) => entry?.kind === "screen" && entry.layout;

/** Every visit of every page, with whether the page shown has the site's layout; throws if a page has no entry. */
export function routeExpectations(): (Visit & { route: string; layout: boolean })[] {
  const { missing, unknown } = unmatchedVisits();
  if (missing.length || unknown.length) {
    throw new Error(`tests/e2e/helpers/routes.ts: no visit for ${missing.join(", ") || "none"}; no such page: ${unknown.join(", ") || "none"}`);
  }
  return routeMap.filter(isPage).flatMap((entry) =>
    (visitsByRoute[entry.path] ?? []).map((visit) => ({
      ...visit,
      route: entry.path || "/",
      layout: hasLayout(visit.landsOn ? routeMap.find((shown) => fixedAddress(shown) === visit.landsOn) : entry),
    })),
  );
}
