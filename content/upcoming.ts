import type { UpcomingScreen } from "./types";

/** Screens of the route map whose feature is not open yet: what they will be, and what to do meanwhile. */
export const upcoming = {
  wishingWell: {
    intro: {
      title: "許願池",
      lead: "許願池是大家一起決定{{productName}}下一步的地方：提出想要的功能，也替別人的願望投一票。",
      description: "提出您希望{{productName}}新增的功能，並替其他家長的願望投票。",
    },
    status: "許願池正在準備中，開放後登入（訪客也可以）就能許願與投票，團隊會把每個願望標示為「已收到」「規劃中」或「已實現」。",
    meanwhile: "在開放之前，歡迎直接寫信告訴我們您的願望，我們每一封都會讀。",
    action: { label: "寫信許願", href: "mailto:{{supportEmail}}?subject=%E8%A8%B1%E9%A1%98%E6%B1%A0" },
  },
  devBlog: {
    intro: {
      title: "開發日誌",
      lead: "團隊記錄{{productName}}怎麼做出來的地方：設計取捨、技術選擇與每次更新的故事。",
      description: "{{productName}}團隊的開發日誌。",
    },
    status: "開發日誌還沒有發表的文章。",
    meanwhile: "想看我們如何打造這個網站，可以先讀 2025 iThome 鐵人賽的技術文章系列。",
    action: { label: "閱讀技術文章", href: "/ironman2025" },
  },
  devBlogPost: {
    intro: {
      title: "找不到這篇開發日誌",
      lead: "這篇文章不存在，或尚未發表。",
      description: "找不到這篇開發日誌。",
    },
    status: "開發日誌目前還沒有發表的文章。",
    meanwhile: "您可以先閱讀技術文章系列。",
    action: { label: "閱讀技術文章", href: "/ironman2025" },
  },
  devBlogEditor: {
    intro: {
      title: "編輯開發日誌",
      lead: "只有擔任編輯的團隊成員可以撰寫或修改開發日誌。",
      description: "撰寫或編輯開發日誌（限編輯）。",
    },
    status: "您的帳號不是編輯帳號。",
    meanwhile: "如果您是團隊成員，請聯絡網站管理者開通編輯身分。",
    action: { label: "回到開發日誌", href: "/dev-blog" },
  },
} satisfies Record<string, UpcomingScreen>;
