// `npm run audit:export -- --since 2026-01-01 [--until 2026-02-01]`: the security record's rows in that span as
// NDJSON (one JSON object a line) on standard output; the count goes to standard error.
import { parseArgs } from "node:util";
import { loadServer } from "./server-bundle.mjs";

const usage = "用法：npm run audit:export -- --since <日期或時間> [--until <日期或時間>] > record.ndjson";
let since;
let until;
try {
  const { values } = parseArgs({ options: { since: { type: "string" }, until: { type: "string" } } });
  since = new Date(values.since ?? "");
  until = values.until === undefined ? undefined : new Date(values.until);
  if (Number.isNaN(since.getTime()) || (until && Number.isNaN(until.getTime()))) throw new Error("日期格式不正確");
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}

const write = (line) => new Promise((resolve) => (process.stdout.write(line) ? resolve() : process.stdout.once("drain", resolve)));
try {
  const server = await loadServer();
  const count = await server.exportAuditRecord(since, until, write);
  console.error(`已匯出 ${count} 筆安全紀錄`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
