import { fromWire, type StoredFileMetadata, type WireObjectResource } from "./file-metadata";
import { sendHttp, type HttpAnswer, type HttpRequest } from "./http-transport";
import { backoffMs, isRetryableStatus, maxOperationRetryMs, maxUploadRetryMs, retryAfterMs } from "./retry-policy";
import { errorFromAnswer, StorageError } from "./storage-errors";
import { defaultStorageBucket, downloadUrl, objectUrl, pathProblem } from "./storage-paths";

/**
 * The site's own browser client for file storage: a thin client of the Firebase Storage v0 protocol our
 * server speaks (the `firebase` package would cost the first-load JS budget). Same behaviour as the Firebase
 * client where the product needs it: retries with doubling back-off and jitter (original §9), upload
 * progress, cancel through an AbortSignal, and every failure a StorageError with a code of the original §8
 * and a Traditional-Chinese message.
 */
export interface StorageCallOptions {
  /** The bucket of the public configuration (`usePublicEnv().storageBucket`); `default` when omitted. */
  bucket?: string;
  /** Cancels the call, retries included; it then rejects with `storage/canceled`. */
  signal?: AbortSignal;
  /** Another origin than the page's (tools and tests); the page's own when omitted. */
  origin?: string;
}

export interface UploadOptions extends StorageCallOptions {
  /** Bytes sent of the current attempt, and the total (the request's size, a little over the file's). */
  onProgress?(sent: number, total: number): void;
  /** Declared type; the server still decides by the bytes. Defaults to the Blob's type. */
  contentType?: string;
  cacheControl?: string;
  customMetadata?: Record<string, string>;
}

export interface UploadResult {
  fullPath: string;
  /** A link anyone holding it can read the file with (the server re-encoded the image). */
  downloadURL: string;
  metadata: StoredFileMetadata;
}

/** Uploads (or replaces) the file at `path`; the server re-encodes images and decides by the bytes. */
export async function uploadFile(path: string, file: Blob, options: UploadOptions = {}): Promise<UploadResult> {
  checkPath(path);
  const bucket = options.bucket ?? defaultStorageBucket;
  const { body, contentType } = multipartBody(file, {
    name: path,
    contentType: options.contentType || file.type || "application/octet-stream",
    ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
    ...(options.customMetadata ? { metadata: options.customMetadata } : {}),
  });
  const url = `${options.origin ?? ""}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(path)}&uploadType=multipart`;
  const answer = await withRetries(
    {
      method: "POST",
      url,
      body,
      headers: { "Content-Type": contentType, "X-Goog-Upload-Protocol": "multipart" },
      onUploadProgress: options.onProgress,
      signal: options.signal,
    },
    maxUploadRetryMs,
  );
  const metadata = fromWire(JSON.parse(answer.text) as WireObjectResource);
  return { fullPath: metadata.fullPath, downloadURL: linkFor(metadata, options.origin), metadata };
}

/** The metadata of the file at `path` (the fields of the original §3). */
export async function getFileMetadata(path: string, options: StorageCallOptions = {}): Promise<StoredFileMetadata> {
  checkPath(path);
  const answer = await withRetries(
    { method: "GET", url: objectUrl(options.bucket ?? defaultStorageBucket, path, options.origin), signal: options.signal },
    maxOperationRetryMs,
  );
  return fromWire(JSON.parse(answer.text) as WireObjectResource);
}

/** Deletes the file at `path`; a file that is already gone rejects with `storage/object-not-found`. */
export async function deleteFile(path: string, options: StorageCallOptions = {}): Promise<void> {
  checkPath(path);
  await withRetries(
    { method: "DELETE", url: objectUrl(options.bucket ?? defaultStorageBucket, path, options.origin), signal: options.signal },
    maxOperationRetryMs,
  );
}

/** The download link of already-fetched metadata; `storage/no-download-url` when it has no token. */
export function linkFor(metadata: StoredFileMetadata, origin = ""): string {
  const token = metadata.downloadTokens.split(",").find(Boolean);
  if (!token) throw new StorageError("storage/no-download-url");
  return downloadUrl(metadata.bucket, metadata.fullPath, token, origin);
}

function checkPath(path: string) {
  const problem = pathProblem(path);
  if (problem === "root") throw new StorageError("storage/invalid-root-operation");
  if (problem) throw new StorageError("storage/invalid-argument", 0, "invalid-path");
}

/** The v0 multipart body: a JSON metadata part, then the bytes (kept as a Blob, never copied). */
function multipartBody(file: Blob, metadata: Record<string, unknown>) {
  const boundary = `----storage${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const head =
    `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(metadata)}\r\n` +
    `--${boundary}\r\nContent-Type: ${String(metadata.contentType)}\r\n\r\n`;
  const body = new Blob([head, file, `\r\n--${boundary}--`]);
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

/** Sends the request until it succeeds, fails for good, is cancelled, or the deadline would pass. */
async function withRetries(request: HttpRequest, deadlineMs: number): Promise<HttpAnswer> {
  const deadline = Date.now() + deadlineMs;
  for (let retry = 1; ; retry++) {
    const answer = await sendHttp(request);
    if (answer.status >= 200 && answer.status < 300) return answer;
    if (!isRetryableStatus(answer.status)) throw errorFromAnswer(answer.status, answer.text);
    const wait = Math.max(backoffMs(retry), retryAfterMs(answer.header("Retry-After")) ?? 0);
    if (Date.now() + wait > deadline) throw new StorageError("storage/retry-limit-exceeded", answer.status);
    await sleep(wait, request.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StorageError("storage/canceled"));
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
