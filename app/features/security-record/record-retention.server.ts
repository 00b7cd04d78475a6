import type { Logger } from "pino";
import { pruneSecurityRecord, type RecordHandle } from "./security-record.server";

/**
 * Keeps the security record AUDIT_RETENTION_DAYS long: removes older rows at start-up and once a day. Only one
 * process does it (worker 1, or the only one); a failed run is logged and tried again the next day.
 */
export function startRecordRetention(record: RecordHandle, days: number, logger: Pick<Logger, "info" | "error">): () => void {
  const run = async () => {
    try {
      const removed = await pruneSecurityRecord(record, days);
      if (removed) logger.info({ removed, retentionDays: days }, "security record: old rows removed");
    } catch (err) {
      logger.error({ err }, "security record: retention failed");
    }
  };
  void run();
  const timer = setInterval(() => void run(), 86_400_000);
  timer.unref();
  return () => clearInterval(timer);
}
