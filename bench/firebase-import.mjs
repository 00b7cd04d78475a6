// `node bench/firebase-import.mjs [count]`: times `npm run import:firebase` on PostgreSQL with a generated export
// of `count` accounts (default 100,000: 70 % password, 10 % Google, 5 % Apple, 5 % Facebook, 5 % phone only,
// 5 % guests). The hashes are random bytes of Firebase's length: the import stores them and never checks them, so
// the export is made in seconds. Runs in a database of its own (BENCH_DATABASE_URL's server, default the test
// one), dropped at the end. The goal (issue 40): under 10 minutes on one 2-core machine.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const count = Number(process.argv[2] ?? 100_000);
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const name = `bench_firebase_${randomBytes(4).toString("hex")}`;
const signerKey = randomBytes(64).toString("base64");

const kinds = [
  ...Array(14).fill("password"),
  "google", "google", "apple", "facebook", "phone", "guest",
];
const users = [];
for (let i = 0; i < count; i += 1) {
  const kind = kinds[i % kinds.length];
  const localId = randomBytes(21).toString("base64url").slice(0, 28);
  const email = `parent${i}@example.tw`;
  const base = { localId, createdAt: String(1_600_000_000_000 + i * 1000), lastSignedInAt: String(1_700_000_000_000 + i * 1000) };
  if (kind === "password") {
    users.push({ ...base, email, emailVerified: true, displayName: `家長${i}`, passwordHash: randomBytes(64).toString("base64"), salt: randomBytes(12).toString("base64"), providerUserInfo: [{ providerId: "password", rawId: email, email }] });
  } else if (kind === "phone") {
    const phone = `+8869${String(10_000_000 + i).slice(-8)}`;
    users.push({ ...base, phoneNumber: phone, providerUserInfo: [{ providerId: "phone", rawId: phone, phoneNumber: phone }] });
  } else if (kind === "guest") {
    users.push(base);
  } else {
    users.push({ ...base, email, emailVerified: true, displayName: `家長${i}`, photoUrl: `https://example.tw/p/${i}.jpg`, providerUserInfo: [{ providerId: `${kind}.com`, rawId: `${kind}-${i}`, email }] });
  }
}
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "firebase-bench-"));
const file = path.join(folder, "users.json");
fs.writeFileSync(file, JSON.stringify({ users }));

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;
const run = () => {
  const started = performance.now();
  const output = execFileSync(
    process.execPath,
    ["scripts/import-firebase.mjs", "--users", file, "--hash-key", signerKey, "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14"],
    { env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: "", DATA_DIR: folder }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  return { seconds: (performance.now() - started) / 1000, output };
};
try {
  const first = run();
  const again = run();
  const summary = (text) => text.split("\n").filter((line) => /共 |用時/.test(line)).join(" / ");
  console.log(`${count} accounts, ${os.cpus().length} cores, Node ${process.version}, PostgreSQL`);
  console.log(`first import: ${first.seconds.toFixed(1)} s (command, start-up and migrations included) — ${summary(first.output)}`);
  console.log(`second import of the same file: ${again.seconds.toFixed(1)} s — ${summary(again.output)}`);
} finally {
  await admin.query(`drop database ${name} with (force)`).catch(() => {});
  await admin.end();
  fs.rmSync(folder, { recursive: true, force: true });
}
