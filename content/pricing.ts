import type { PricingContent } from "./types";

export const pricing: PricingContent = {
  intro: {
    title: "免費方案",
    lead: "{{productName}}目前提供免費方案，註冊後即可使用完整的任務、點數與獎勵功能。",
    description: "{{productName}}的免費方案包含的功能，以及即將推出的進階方案說明。",
  },
  plans: [
    {
      name: "免費方案",
      status: "available",
      summary: "適合想幫孩子建立好習慣的每個家庭。",
      includes: [
        "任務卡與時段安排",
        "孩子的每日行程",
        "點數、星星與成就徽章",
        "獎勵兌換與願望清單",
        "一個家庭可以有多位孩子",
        "家長儀表板",
        "手機、平板、電腦都能使用",
        "以電子郵件聯絡客服",
      ],
    },
    {
      name: "進階方案",
      status: "coming",
      summary: "我們正在規劃進階方案。推出前會先公告內容與價格，不會自動收費。",
      includes: [],
    },
  ],
  notes: [
    { title: "需要信用卡嗎？", text: "不需要。註冊免費方案不必提供任何付款資訊。" },
    { title: "免費方案會變成收費嗎？", text: "免費方案既有的功能不會在未經通知的情況下改為收費。若推出付費方案，會事先公告並由你自行選擇。" },
    { title: "想要什麼新功能？", text: "歡迎到許願池許下你的願望，我們會參考大家的意見安排開發順序。" },
  ],
};
