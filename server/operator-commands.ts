import { getEnv } from "~/config/env.server";
import { closeDatabase, getDatabase, prepareDatabase } from "~/db/db.server";
import { securityRecordSince, verifySecurityRecord } from "~/features/security-record/security-record.server";

/**
 * The security record's operator commands (`npm run audit:verify`, `npm run audit:export`), run inside the server
 * bundle on the configured database. Each answers what to print; the export writes its lines as it reads them.
 */
export async function verifyAuditRecord(): Promise<{ ok: boolean; message: string }> {
  await prepareDatabase();
  try {
    const check = await verifySecurityRecord(getDatabase());
    const days = getEnv().AUDIT_RETENTION_DAYS;
    return check.ok
      ? { ok: true, message: `安全紀錄完整：檢查了 ${check.rows} 筆（保存 ${days} 天），最新雜湊 ${check.headHash}` }
      : { ok: false, message: `安全紀錄有問題：${check.problem}（之前的 ${check.rows} 筆沒有問題；最新雜湊 ${check.headHash}）` };
  } finally {
    await closeDatabase();
  }
}

/** Writes every row from `since` (before `until`) as one JSON object per line; answers how many. */
export async function exportAuditRecord(since: Date, until: Date | undefined, write: (line: string) => Promise<void>): Promise<number> {
  await prepareDatabase();
  try {
    let count = 0;
    for await (const row of securityRecordSince(getDatabase(), since, until)) {
      await write(`${JSON.stringify(row)}\n`);
      count += 1;
    }
    return count;
  } finally {
    await closeDatabase();
  }
}
