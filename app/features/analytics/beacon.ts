export const ANALYTICS_ENDPOINT = "/api/analytics";
/** The endpoint takes at most this many events per request; a fuller queue is sent at once. */
export const MAX_BATCH = 20;
const FLUSH_DELAY_MS = 5_000;

let queue: { name: string; params: object }[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/** Events are sent in batches with sendBeacon: at most every 5 s, when the queue is full, and when the page hides. */
export function queueForEndpoint(name: string, params: object) {
  queue.push({ name, params });
  if (!listening) {
    listening = true;
    addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") flush();
    });
  }
  if (queue.length >= MAX_BATCH) flush();
  else timer ??= setTimeout(flush, FLUSH_DELAY_MS);
}

export function flush() {
  clearTimeout(timer);
  timer = undefined;
  if (queue.length === 0) return;
  const body = new Blob([JSON.stringify({ events: queue })], { type: "application/json" });
  queue = [];
  // Analytics must never disturb the visit: a refused beacon is simply dropped.
  if (typeof navigator.sendBeacon === "function") navigator.sendBeacon(ANALYTICS_ENDPOINT, body);
}
