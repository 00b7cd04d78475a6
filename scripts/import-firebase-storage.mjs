// `npm run import:firebase-storage -- --from <folder> --metadata <file> [--dry-run]`: copies a Firebase Storage bucket
// (downloaded to <folder>, its objects' metadata listed in <file>) into the site's storage (DATA_DIR or the S3 driver)
// under STORAGE_BUCKET, keeping paths, content types, creation times, custom metadata and download tokens.
// docs/migrating-from-firebase.md is the runbook.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { importProgress } from "./import-progress.mjs";
import { loadServer } from "./server-bundle.mjs";

const usage = "用法：npm run import:firebase-storage -- --from <bucket 的複本資料夾> --metadata <物件清單.json> [--dry-run]";

let flags;
try {
  ({ values: flags } = parseArgs({
    options: { from: { type: "string" }, metadata: { type: "string" }, "dry-run": { type: "boolean", default: false } },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (!flags.from || !flags.metadata) {
  console.error(usage);
  process.exit(2);
}
if (!fs.statSync(flags.from, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`找不到資料夾 ${flags.from}`);
  process.exit(2);
}
let metadataText;
try {
  metadataText = fs.readFileSync(flags.metadata, "utf8");
} catch (error) {
  console.error(`讀不到 metadata 檔 ${flags.metadata}：${error.code ?? error.message}`);
  process.exit(2);
}

const started = Date.now();
const progress = importProgress("個檔案");

try {
  const server = await loadServer();
  console.log(await server.importFirebaseStorage({ from: flags.from, metadataText, dryRun: flags["dry-run"], progress }));
  console.log(`用時 ${((Date.now() - started) / 1000).toFixed(1)} 秒`);
  process.exit(0);
} catch (error) {
  if (process.stdout.isTTY) process.stdout.write("\n");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
