/** What the editor says when a save is refused (shared with the tests that check it is said). */
export const staleMessage =
  "這篇文章在你開始編輯後已被修改（也許是另一個分頁或另一位編輯），所以這次沒有儲存，也沒有覆蓋那份修改。你的內容還在畫面上：請先複製起來，再重新載入頁面查看最新版本。";
export const goneMessage = "這篇文章已被刪除，無法儲存。你的內容還在畫面上，可以複製後另開新文章。";
/** The code of a save refused because the post changed since the editor opened it (the screen offers the latest). */
export const staleCode = "dev-blog/stale";
