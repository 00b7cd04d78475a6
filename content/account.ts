import type { AccountDeletionContent, CurrentPlanContent } from "./types";

export const currentPlan: CurrentPlanContent = {
  intro: {
    title: "目前方案",
    lead: "查看你的帳號目前使用的方案、包含的功能與使用限制。",
    description: "查看你在{{productName}}目前使用的方案與使用限制。",
  },
  planName: "免費方案",
  limits: [
    "每個帳號管理一個家庭，家庭中可以有多位孩子",
    "訪客帳號只能在目前的瀏覽器使用，升級成正式帳號後可以跨裝置使用",
    "未來推出的進階方案功能，不包含在免費方案內",
  ],
  signedIn: {
    title: "開始使用",
    text: "到 App 為孩子設定任務、查看點數與兌換獎勵。",
  },
  visitor: {
    title: "登入後查看你的方案",
    text: "登入帳號後，這裡會顯示你目前使用的方案與使用限制。登入完成會自動回到這一頁。",
  },
};

export const accountDeletion: AccountDeletionContent = {
  intro: {
    title: "刪除帳號",
    lead: "你可以隨時刪除{{productName}}帳號。刪除後，帳號與相關資料都會移除，而且無法復原。",
    description: "如何刪除{{productName}}帳號：會刪除哪些資料、需要多久，以及自行刪除或以電子郵件申請的方式。",
  },
  sections: [
    {
      title: "會刪除的資料",
      items: [
        "帳號資料：電子郵件、顯示名稱、密碼（雜湊後的結果）與社群帳號的連結",
        "所有裝置上的登入狀態，刪除後會立即登出",
        "你在許願池許下的願望與投票",
        "你上傳的檔案",
        "訪客帳號與它的所有資料",
      ],
    },
    {
      title: "會保留的資料",
      items: [
        "不含個人資料的匿名瀏覽統計，無法對應回你",
        "系統備份中的副本會在備份依週期覆蓋時移除，最長不超過 30 天",
      ],
    },
    {
      title: "需要多久",
      items: [
        "在本頁登入後自行刪除：立即生效",
        "以電子郵件申請：我們會在收到申請後 30 天內處理並回覆你（依個人資料保護法第 13 條）",
      ],
    },
  ],
  byEmail: {
    title: "以電子郵件申請刪除",
    text: "無法登入或需要協助時，請用帳號的電子郵件寫信給我們，並在信中註明要刪除的帳號電子郵件。為了保護你的帳號，我們可能會請你確認身分。",
    subject: "刪除帳號申請",
  },
  selfService: {
    title: "自行刪除帳號",
    text: "登入後，就能在這裡自行刪除帳號，立即生效。",
    signedInText: "刪除後無法復原。請輸入確認文字；帳號設有密碼時，也請輸入密碼。",
    confirmWord: "刪除帳號",
    done: "你的帳號與資料已經刪除，這個瀏覽器也已登出。謝謝你使用{{productName}}。",
  },
};
