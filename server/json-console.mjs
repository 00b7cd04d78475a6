// Every line the running site writes is one JSON object, like pino's (docs/operations.md, "Logs"). Libraries that
// print through `console` — @hono/node-server's "The user aborted a request." and the stack of a response it could
// not write (ERR_HTTP_HEADERS_SENT), Koa's and oidc-provider's notices — and Node's own warnings and uncaught
// errors would otherwise write plain, multi-line text between the JSON lines.
import { format } from "node:util";

/** Node's own console.error, for the sentences that refuse a bad configuration (read by a person, not a log store). */
export const plainError = console.error.bind(console);

const levels = { debug: 20, log: 30, info: 30, warn: 40, error: 50 };

/** A line another part of the process already wrote as JSON (server.mjs's own lines) goes out unchanged. */
function isJsonLine(text) {
  if (!text.startsWith("{") || text.includes("\n")) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function describe(error) {
  return { type: error.name, message: error.message, code: error.code, stack: error.stack };
}

export function useJsonConsole() {
  for (const [method, level] of Object.entries(levels)) {
    const stream = level >= 40 ? process.stderr : process.stdout;
    console[method] = (...args) => {
      if (args.length === 1 && typeof args[0] === "string" && isJsonLine(args[0])) {
        stream.write(`${args[0]}\n`);
        return;
      }
      const error = args.find((arg) => arg instanceof Error);
      const rest = args.filter((arg) => arg !== error);
      const line = { level, time: Date.now(), pid: process.pid, msg: rest.length ? format(...rest) : (error?.message ?? "") };
      if (error) line.err = describe(error);
      stream.write(`${JSON.stringify(line)}\n`);
    };
  }
  // Node prints warnings (a deprecation, an experimental API) through its own listener, in plain text.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => console.warn(warning));
  process.on("uncaughtException", (error) => {
    console.error("uncaught exception; the process ends", error);
    process.exit(1);
  });
}
