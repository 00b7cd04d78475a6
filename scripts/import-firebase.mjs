// `npm run import:firebase -- --users <file> --hash-key <base64_signer_key> --salt-separator <base64_salt_separator>
// --rounds <n> --mem-cost <n> [--check-password <email>:<password>] [--dry-run]`: imports a Firebase Authentication
// export (`firebase auth:export <file> --format=json`) into the configured database (DATA_DIR or DATABASE_URL).
// The flags are the Firebase CLI's own (`firebase auth:import`). docs/migrating-from-firebase.md is the runbook.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { importProgress } from "./import-progress.mjs";
import { loadServer } from "./server-bundle.mjs";

const usage =
  "用法：npm run import:firebase -- --users <匯出檔.json> --hash-key <base64_signer_key> --salt-separator <base64_salt_separator> --rounds <n> --mem-cost <n> [--check-password <email>:<密碼>] [--dry-run]";

let flags;
try {
  ({ values: flags } = parseArgs({
    options: {
      users: { type: "string" },
      "hash-key": { type: "string" },
      "salt-separator": { type: "string" },
      rounds: { type: "string" },
      "mem-cost": { type: "string" },
      "check-password": { type: "string" },
      "dry-run": { type: "boolean", default: false },
      // `firebase auth:import` takes it too; only SCRYPT (Firebase's own) is read here.
      "hash-algo": { type: "string" },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (!flags.users) {
  console.error(usage);
  process.exit(2);
}
if (flags["hash-algo"] && flags["hash-algo"].toUpperCase() !== "SCRYPT") {
  console.error("只支援 Firebase 自己的雜湊（--hash-algo=SCRYPT）。沒有寫入任何資料。");
  process.exit(2);
}
let exportText;
try {
  exportText = fs.readFileSync(flags.users, "utf8");
} catch (error) {
  console.error(`讀不到匯出檔 ${flags.users}：${error.code ?? error.message}`);
  process.exit(2);
}
const anyParameter = ["hash-key", "salt-separator", "rounds", "mem-cost"].some((name) => flags[name] !== undefined);
const parameters = anyParameter
  ? { signerKey: flags["hash-key"], saltSeparator: flags["salt-separator"], rounds: Number(flags.rounds), memCost: Number(flags["mem-cost"]) }
  : undefined;

const started = Date.now();
const progress = importProgress("個帳號");

try {
  const server = await loadServer();
  const summary = await server.importFirebaseUsers(exportText, { parameters, dryRun: flags["dry-run"], checkPassword: flags["check-password"], progress });
  console.log(summary);
  console.log(`用時 ${((Date.now() - started) / 1000).toFixed(1)} 秒`);
  process.exit(0);
} catch (error) {
  if (process.stdout.isTTY) process.stdout.write("\n");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
