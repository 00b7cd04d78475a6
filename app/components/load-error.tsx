/** Failures to load a screen, shown in Traditional Chinese with a way out instead of a blank page. */
const messages = {
  chunk: { title: "頁面載入失敗", body: "網路連線中斷，或網站剛更新了版本。請確認網路連線後重新載入。" },
  timeout: { title: "頁面載入逾時", body: "等候太久仍無法載入這個頁面，請確認網路連線後重新載入。" },
  offline: { title: "目前沒有網路連線", body: "無法載入下一個頁面。請確認網路連線後重新載入。" },
  request: { title: "無法顯示這個頁面", body: "請求的內容有誤或已不存在。" },
  server: { title: "發生錯誤", body: "伺服器暫時無法處理，請稍後再試。" },
} as const;

export type LoadErrorReason = keyof typeof messages;

const chunkErrorPattern =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && chunkErrorPattern.test(error.message);
}

export function LoadError({
  reason,
  status,
  href,
}: {
  reason: LoadErrorReason;
  status?: number;
  /** Where the reload button goes; the current page by default. */
  href?: string;
}) {
  const message = messages[reason];
  return (
    <main className="load-error" role="alert">
      <h1>{message.title}</h1>
      <p>{message.body}</p>
      {status ? <p className="load-error__status">錯誤代碼：{status}</p> : null}
      <p className="load-error__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => (href ? window.location.assign(href) : window.location.reload())}
        >
          重新載入
        </button>
        <a href="/">回到首頁</a>
      </p>
    </main>
  );
}
