// Preloaded into the server by bench/operation-costs.mjs (NODE_OPTIONS=--import): counts the SQL statements sent
// through `pg`, the Redis commands sent through `ioredis` and the writes to Redis's socket (one per round trip: a
// pipeline or MULTI block goes out in one write), and writes the counts to COUNT_CALLS_FILE on SIGUSR2.
// Bench only: never loaded by the site itself.
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import process from "node:process";
import { URL } from "node:url";

// The server's own copies of pg and ioredis (CommonJS: the site's imports get these very modules).
const require = createRequire(import.meta.url);
const counts = { statements: 0, transactions: 0, redisCommands: 0, redisRoundTrips: 0, names: {} };
const named = (name) => (counts.names[name] = (counts.names[name] ?? 0) + 1);
const pg = require("pg");
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const text = typeof config === "string" ? config : config?.text ?? "";
  if (/^\s*begin/i.test(text)) counts.transactions += 1;
  // BEGIN / COMMIT / ROLLBACK are round trips too, and count as statements.
  counts.statements += 1;
  named(`sql ${text.trim().split(/\s+/).slice(0, 4).join(" ").slice(0, 60)}`);
  return query.call(this, config, ...rest);
};
const { Redis } = require("ioredis");
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function countedCommand(...args) {
  counts.redisCommands += 1;
  named(`redis ${args[0]?.name}`);
  return sendCommand.apply(this, args);
};
const redisPort = Number(new URL(process.env.REDIS_URL || "redis://127.0.0.1:6379").port || 6379);
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function countedWrite(...args) {
  if (this.remotePort === redisPort) counts.redisRoundTrips += 1;
  return write.apply(this, args);
};
process.on("SIGUSR2", () => fs.writeFileSync(process.env.COUNT_CALLS_FILE, JSON.stringify(counts)));
