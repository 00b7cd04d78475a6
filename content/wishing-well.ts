import type { PageIntro } from "./types";

/** The wishing well's words that are content rather than interface (PRODUCT §3). */
export const wishingWell: { intro: PageIntro; howItWorks: string[]; signInPrompt: string } = {
  intro: {
    title: "許願池",
    lead: "希望{{productName}}多一個什麼功能？在這裡許願，也替別人的願望投一票。團隊會看每一個願望，並標示「已收到」「規劃中」「已實現」或「暫不考慮」。",
    description: "提出你希望{{productName}}新增的功能，替其他家長的願望投票，看看團隊正在規劃什麼。",
  },
  howItWorks: [
    "登入後（訪客也可以）就能許願；標題最多 60 個字，說明最多 500 個字。",
    "完成電子郵件驗證的正式帳號可以替每個願望投一票，再按一次就收回；自己的願望不能投票。",
    "許願後 15 分鐘內可以修改，任何時候都可以刪除自己的願望。",
    "團隊改變願望的狀態時，會寄信通知許願的人（需要已驗證的電子郵件），信裡可以一鍵取消通知。",
  ],
  signInPrompt: "登入或以訪客身分試用就能許願；完成電子郵件驗證的正式帳號還能投票。",
};
