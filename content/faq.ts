import type { FaqContent } from "./types";

export const faq: FaqContent = {
  intro: {
    title: "常見問題",
    lead: "整理家長最常詢問的問題。找不到答案時，歡迎寫信給我們。",
    description: "帳號、兒童隱私、訪客模式、方案與裝置的常見問題。",
  },
  groups: [
    {
      id: "account",
      title: "帳號",
      questions: [
        {
          id: "account-signup",
          question: "要怎麼註冊帳號？",
          answer: [
            "在註冊頁面填寫顯示名稱、電子郵件與密碼即可。註冊後我們會寄出驗證信，點選信中的連結完成驗證，之後就能用電子郵件與密碼登入。",
            "也可以使用 Google、Facebook 或 LINE 帳號登入。",
          ],
        },
        {
          id: "account-verification",
          question: "沒有收到驗證信怎麼辦？",
          answer: [
            "請先檢查垃圾郵件或促銷郵件分類。如果還是找不到，可以在驗證頁面點選「重新寄送驗證信」。",
          ],
        },
        {
          id: "account-password",
          question: "忘記密碼怎麼辦？",
          answer: [
            "在登入頁面點選「忘記密碼？」，輸入註冊時的電子郵件，我們會寄出重設密碼信。依照信中的連結設定新密碼後，就能重新登入。",
          ],
        },
        {
          id: "account-delete",
          question: "可以刪除帳號嗎？",
          answer: [
            "可以。登入後到「刪除帳號」頁面即可自行刪除，也可以寫信請我們協助。刪除後，帳號與相關資料都會移除，無法復原。",
          ],
        },
      ],
    },
    {
      id: "privacy",
      title: "兒童隱私",
      questions: [
        {
          id: "privacy-children",
          question: "孩子的資料安全嗎？",
          answer: [
            "帳號由家長建立與管理，我們不要求孩子提供個人資料。建立孩子的資料時，建議使用暱稱，不需要填寫全名、學校或照片。",
            "我們不會出售你或孩子的資料，詳細內容請參考隱私權政策。",
          ],
        },
        {
          id: "privacy-analytics",
          question: "你們會追蹤我的瀏覽行為嗎？",
          answer: [
            "我們只記錄不含個人資料的匿名頁面瀏覽統計，用來了解哪些內容對家長有幫助，而且不使用 Cookie。若網站啟用 Google Analytics，會在隱私權政策中說明。",
          ],
        },
      ],
    },
    {
      id: "guest",
      title: "訪客模式",
      questions: [
        {
          id: "guest-what",
          question: "可以不註冊就先試用嗎？",
          answer: [
            "可以。在登入頁面點選「以訪客身分試用」，不需要電子郵件或密碼就能開始體驗。",
          ],
        },
        {
          id: "guest-upgrade",
          question: "訪客的資料可以保留嗎？",
          answer: [
            "可以。試用後在註冊頁面填寫電子郵件與密碼，就能把訪客帳號升級成正式帳號，試用期間的資料都會保留。",
          ],
        },
        {
          id: "guest-limits",
          question: "訪客模式有什麼限制？",
          answer: [
            "訪客帳號只存在於目前使用的瀏覽器。登出或清除瀏覽器資料後，就無法回到同一個訪客帳號。想在其他裝置使用，請先升級成正式帳號。",
          ],
        },
      ],
    },
    {
      id: "pricing",
      title: "方案與費用",
      questions: [
        {
          id: "pricing-free",
          question: "{{productName}}要付費嗎？",
          answer: [
            "目前提供免費方案，註冊後就能使用任務、點數、獎勵等完整功能，不需要提供付款資訊。",
          ],
        },
        {
          id: "pricing-future",
          question: "以後會收費嗎？",
          answer: [
            "我們正在規劃進階方案，推出前會先公告內容與價格。免費方案既有的功能不會在未經通知的情況下改為收費。",
          ],
        },
      ],
    },
    {
      id: "devices",
      title: "裝置",
      questions: [
        {
          id: "devices-supported",
          question: "可以在哪些裝置上使用？",
          answer: [
            "手機、平板與電腦的瀏覽器都可以使用，建議使用最新版的 Chrome、Safari、Edge 或 Firefox。",
          ],
        },
        {
          id: "devices-install",
          question: "需要到 App Store 或 Google Play 下載嗎？",
          answer: [
            "不需要。{{productName}}是網頁應用程式，用瀏覽器開啟就能使用。你也可以用瀏覽器的「加到主畫面」功能，像一般 App 一樣從手機桌面開啟。",
          ],
        },
        {
          id: "devices-sync",
          question: "家長和孩子可以用不同的裝置嗎？",
          answer: [
            "可以。用同一個帳號在不同裝置登入，資料會保持一致。例如家長用手機設定任務，孩子在家裡的平板上查看每日行程。",
          ],
        },
      ],
    },
  ],
  contact: {
    title: "還有其他問題？",
    text: "歡迎寫信給我們，我們會盡快回覆你。",
  },
};
