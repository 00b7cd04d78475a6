import { StorageError } from "./storage-errors";

/**
 * One HTTP exchange for the browser client, over XMLHttpRequest because fetch cannot report upload progress.
 * A request that never reaches the server answers status 0; an aborted one rejects with `storage/canceled`.
 */
export interface HttpRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: Blob | string;
  onUploadProgress?(sent: number, total: number): void;
  signal?: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  text: string;
  header(name: string): string | null;
}

export function sendHttp(request: HttpRequest): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(new StorageError("storage/canceled"));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    // Same origin: the session cookie identifies the caller.
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    const onAbort = () => xhr.abort();
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => request.signal?.removeEventListener("abort", onAbort);
    if (request.onUploadProgress) {
      const report = request.onUploadProgress;
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) report(event.loaded, event.total);
      });
    }
    xhr.addEventListener("load", () => {
      settle();
      resolve({ status: xhr.status, text: xhr.responseText, header: (name) => xhr.getResponseHeader(name) });
    });
    xhr.addEventListener("error", () => {
      settle();
      resolve({ status: 0, text: "", header: () => null });
    });
    xhr.addEventListener("abort", () => {
      settle();
      reject(new StorageError("storage/canceled"));
    });
    xhr.send(request.body ?? null);
  });
}
