import type { IronmanArticle, IronmanContent } from "./types";

const ithome = "https://ithelp.ithome.com.tw/";

/**
 * [title, summary, article address] for each day of the series, in order. An address goes here only once it is
 * known to be the day's own article on iThome (https://ithelp.ithome.com.tw/articles/<number>); until then the
 * entry has none and the list shows no link for it, rather than a link that leads somewhere else.
 */
const days: [title: string, summary: string, url?: string][] = [
  ["為什麼要自己打造網站與登入服務", "說明產品背景與目標：繁體中文、行動優先、資料自己掌握，以及整個系列的規劃。"],
  ["選擇 React Router 7 框架模式", "比較單頁應用與伺服器端渲染，說明為什麼選擇 React Router 的框架模式。"],
  ["用 Hono 當作輕量的 Node 主機", "把轉址、安全標頭、壓縮與靜態檔案交給 Hono，其餘請求交給 React Router。"],
  ["預先渲染與伺服器端渲染的分工", "哪些頁面在建置時產生 HTML，哪些頁面需要讀取登入狀態而在請求時渲染。"],
  ["路由層級的程式碼分割", "每個頁面獨立載入，並在載入時顯示「載入中…」，控制首頁的 JavaScript 大小。"],
  ["用 zod 驗證所有環境變數", "設定錯誤時伺服器在啟動時就停下，並清楚指出是哪一個變數。"],
  ["同一套程式支援 SQLite 與 PostgreSQL", "用 Kysely 撰寫查詢與遷移，本機用 SQLite，正式環境可以換成 PostgreSQL。"],
  ["資料庫遷移與測試", "讓同一組遷移與測試在兩種資料庫上都能通過。"],
  ["用 Better Auth 建立自己的登入服務", "電子郵件與密碼註冊、登入與工作階段 Cookie 的基本設定。"],
  ["電子郵件驗證與重設密碼", "設計驗證信與重設密碼信的流程，以及連結過期時的處理。"],
  ["開發用信箱：不用 SMTP 也能測試寄信", "本機開發時把信件存起來，讓端對端測試可以讀取驗證連結。"],
  ["社群登入與彈出視窗", "以彈出視窗完成 Google、Facebook、LINE 登入，並處理視窗被封鎖或關閉的情況。"],
  ["本機的開發用身分提供者", "用 OpenID Connect 在本機模擬社群登入，走和正式環境相同的程式路徑。"],
  ["訪客模式與原地升級", "訪客升級成正式帳號時保留同一個使用者識別碼與資料。"],
  ["密碼雜湊：argon2id 參數怎麼選", "依照 OWASP 建議設定 argon2id，並確認不會阻塞事件迴圈。"],
  ["限制登入嘗試次數", "針對 IP 與帳號限制嘗試次數，並在多台伺服器之間以 Redis 共用計數。"],
  ["錯誤訊息的繁體中文對照", "把登入服務的錯誤碼對應成家長看得懂的繁體中文訊息。"],
  ["設計權杖與 CSS 自訂屬性", "用一組設計權杖管理色彩與間距，不使用執行期的 CSS-in-JS。"],
  ["色彩對比與品牌色", "品牌色在白底上對比不足時，如何為文字與按鈕挑選較深的色階。"],
  ["無障礙：鍵盤操作與焦點管理", "對話方塊的焦點移動、Escape 關閉與可用鍵盤操作的常見問題。"],
  ["用 axe-core 自動檢查無障礙", "在端對端測試中檢查每個頁面，讓無障礙問題在合併前就被發現。"],
  ["Markdown 內容與前置資料", "家長學堂與最新消息以 Markdown 撰寫，在伺服器解析並驗證前置資料。"],
  ["安全地輸出 Markdown", "停用原始 HTML、過濾連結，避免內容成為跨站指令碼攻擊（XSS）的入口。"],
  ["結構化資料與搜尋引擎最佳化", "為文章加上 BlogPosting、NewsArticle 與 FAQPage 結構化資料。"],
  ["Lighthouse 行動版滿分的細節", "控制 JavaScript 大小、避免版面位移、預先壓縮檔案。"],
  ["SVG 插圖與圖片尺寸", "自己繪製 SVG 插圖，並設定寬高與延遲載入，避免版面跳動。"],
  ["自動檢查台灣繁體中文用語", "用 OpenCC 與用語清單，在測試中找出簡體字與非台灣慣用詞。"],
  ["用 Chromium 跑端對端測試", "在沒有對外網路的環境中，用系統的 Chromium 執行瀏覽器測試。"],
  ["部署：PostgreSQL、Redis 與備份", "從單機版擴充到多台伺服器，以及資料庫備份與還原。"],
  ["回顧與下一步", "整理三十天的收穫、踩過的坑，以及產品接下來的方向。"],
];

export const ironman2025: IronmanContent = {
  intro: {
    title: "技術文章",
    lead: "2025 iThome 鐵人賽系列：三十天記錄{{productName}}網站與登入服務的打造過程。",
    description: "2025 iThome 鐵人賽系列文章：React Router、Better Auth、SQLite 與 PostgreSQL、Lighthouse、無障礙。",
  },
  seriesUrl: ithome,
  missingLinkNote: "還沒有附上連結的文章，表示我們尚未確認它在 iThome 上的網址；確認後就會補上。",
  articles: days.map(([title, summary, url], index): IronmanArticle => ({ day: index + 1, title, summary, ...(url ? { url } : {}) })),
};
