/** Every route of PRODUCT §2 with a concrete path, its page title and whether it has the shared layout. */
export interface RouteExpectation {
  path: string;
  title: string;
  layout: boolean;
  status?: number;
}

export const authRoutes: RouteExpectation[] = [
  { path: "/login", title: "登入", layout: false },
  { path: "/signup", title: "註冊", layout: false },
  { path: "/email-verification", title: "驗證電子郵件", layout: false },
  { path: "/forgot-password", title: "忘記密碼", layout: false },
  { path: "/reset-password", title: "重設密碼", layout: false },
  { path: "/verify-email", title: "電子郵件驗證", layout: false },
  { path: "/firebase-test", title: "登入服務自我檢測", layout: false },
];

export const siteRoutes: RouteExpectation[] = [
  { path: "/", title: "首頁", layout: true },
  { path: "/features", title: "功能介紹", layout: true },
  { path: "/pricing", title: "免費方案", layout: true },
  { path: "/current-plan", title: "目前方案", layout: true },
  { path: "/wishing-well", title: "許願池", layout: true },
  { path: "/faq", title: "常見問題", layout: true },
  { path: "/about", title: "關於我們", layout: true },
  { path: "/tutorial", title: "使用教學", layout: true },
  { path: "/learning-resources", title: "學習資源", layout: true },
  { path: "/blog", title: "家長學堂", layout: true },
  { path: "/dev-blog", title: "開發日誌", layout: true },
  { path: "/dev-blog/no-such-post", title: "找不到這篇開發日誌", layout: true, status: 404 },
  { path: "/news", title: "最新消息", layout: true },
  { path: "/privacy", title: "隱私權政策", layout: true },
  { path: "/terms", title: "服務條款", layout: true },
  { path: "/ironman2025", title: "技術文章", layout: true },
  { path: "/task-scheduler", title: "免費任務表", layout: true },
  { path: "/account-deletion", title: "刪除帳號", layout: true },
  { path: "/account/security", title: "帳號安全", layout: true },
  { path: "/account", title: "帳號設定", layout: true },
  { path: "/account/confirm-identity", title: "確認身分", layout: true },
  { path: "/account/data", title: "我的資料", layout: true },
  { path: "/learning-resources/habits", title: "習慣養成｜學習資源", layout: true },
  { path: "/blog/chores-by-age", title: "依年齡分配家務：2 到 12 歲孩子做得到的事", layout: true },
  { path: "/news/guest-mode", title: "訪客模式上線：不用註冊，也能先試用", layout: true },
  { path: "/blog?page=2", title: "家長學堂（第 2 頁）", layout: true },
  { path: "/blog/no-such-article", title: "找不到這篇文章", layout: true, status: 404 },
  { path: "/learning-resources/no-such-topic", title: "找不到這個主題", layout: true, status: 404 },
  { path: "/no-such-page", title: "找不到頁面", layout: true, status: 404 },
];

export const allRoutes = [...authRoutes, ...siteRoutes];
