/**
 * The file-storage error catalogue of the original §8: one table from code to Traditional-Chinese message,
 * used by the server (every error answer names a code) and by the browser client (every failed call).
 */
export const storageErrorMessages = {
  "storage/unknown": "發生未知錯誤，請稍後再試",
  "storage/object-not-found": "找不到這個檔案",
  "storage/bucket-not-found": "找不到這個儲存空間",
  "storage/quota-exceeded": "你的儲存空間已滿，請先刪除一些檔案",
  "storage/unauthenticated": "請先登入再上傳或讀取檔案",
  "storage/unauthorized-app": "應用程式驗證失敗，請重新整理頁面後再試",
  "storage/unauthorized": "你不能存取這個位置的檔案",
  "storage/retry-limit-exceeded": "重試時間已超過上限，請檢查網路連線後再試",
  "storage/canceled": "已取消上傳或下載",
  "storage/invalid-url": "檔案網址格式不正確",
  "storage/invalid-default-bucket": "預設儲存空間的設定不正確",
  "storage/no-default-bucket": "尚未設定預設儲存空間",
  "storage/invalid-argument": "參數不正確",
  "storage/invalid-format": "資料格式不正確",
  "storage/invalid-root-operation": "不能對根目錄上傳、下載或刪除檔案",
  "storage/app-deleted": "應用程式已被刪除",
  "storage/no-download-url": "這個檔案沒有下載網址",
  "storage/cannot-slice-blob": "讀取檔案時發生錯誤，請重新選擇檔案",
  "storage/unsupported-environment": "此瀏覽器不支援檔案上傳",
  "storage/internal-error": "伺服器內部錯誤，請稍後再試",
} as const;

/**
 * Finer reasons our server gives beside a code of the original §8 (the Firebase client sees only the status and
 * that code; our own client shows the finer message).
 */
export const storageDetailMessages = {
  "not-an-image": "只能上傳 PNG、JPEG、WebP 或 GIF 圖片",
  "too-large": "檔案太大，超過上傳大小上限",
  "image-unreadable": "無法讀取這張圖片，檔案可能已損壞",
  "invalid-path": "檔案路徑不正確",
  "metadata-too-large": "自訂資訊太多或太長（最多 50 項、共 8 KB）",
  "storage-full": "網站的儲存空間已滿，暫時無法上傳檔案；你仍可以刪除檔案",
  "too-many-uploads": "未完成的上傳太多，請先完成或取消其他上傳",
  "rate-limited": "上傳或修改檔案太頻繁，請稍後再試",
  "upload-offset": "上傳進度與伺服器不一致，請重新上傳",
} as const;

export type StorageErrorCode = keyof typeof storageErrorMessages;
export type StorageErrorDetail = keyof typeof storageDetailMessages;

/** The Traditional-Chinese message for a storage code (with or without the `storage/` prefix). */
export function storageErrorMessage(code: string, detail?: string): string {
  if (detail && detail in storageDetailMessages) {
    return storageDetailMessages[detail as StorageErrorDetail];
  }
  const key = code.startsWith("storage/") ? code : `storage/${code}`;
  return (storageErrorMessages as Record<string, string>)[key] ?? storageErrorMessages["storage/unknown"];
}

/** What every failed storage call of our browser client throws. */
export class StorageError extends Error {
  override name = "StorageError";
  constructor(
    readonly code: StorageErrorCode,
    readonly status = 0,
    readonly detail?: StorageErrorDetail,
  ) {
    super(storageErrorMessage(code, detail));
  }
}

/** The code of the original §8 that a bare HTTP status means, as the Firebase client reads it. */
export function codeForStatus(status: number): StorageErrorCode {
  switch (status) {
    case 401:
      return "storage/unauthenticated";
    case 402:
      return "storage/quota-exceeded";
    case 403:
      return "storage/unauthorized";
    case 404:
      return "storage/object-not-found";
    case 400:
      return "storage/invalid-argument";
    default:
      return status >= 500 ? "storage/internal-error" : "storage/unknown";
  }
}

/** The Firebase error shape our server answers with: the HTTP status as `code`, plus the code of the original §8 as `reason`. */
export interface StorageErrorBody {
  error: { code: number; message: string; reason: StorageErrorCode; detail?: StorageErrorDetail };
}

/** Reads a server's error answer; a body that is not ours falls back to what the status means. */
export function errorFromAnswer(status: number, text: string): StorageError {
  try {
    const body = JSON.parse(text) as Partial<StorageErrorBody>;
    const reason = body.error?.reason;
    if (reason && reason in storageErrorMessages) {
      const detail = body.error?.detail;
      return new StorageError(reason, status, detail && detail in storageDetailMessages ? detail : undefined);
    }
  } catch {
    // not JSON: a proxy's page, for instance
  }
  return new StorageError(codeForStatus(status), status);
}
