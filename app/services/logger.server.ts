import pino, { type Logger } from "pino";
import { batchedStdout } from "./log-destination.server";

/**
 * The one structured logger: JSON lines on stdout, one object per event. Secrets never reach a log line:
 * known fields are censored by path, and every string is scrubbed of email addresses and token parameters.
 */
const emailPattern = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
const tokenParameter = /\b(token|code|password|secret)=[^&\s"]+/gi;

export function scrub(text: string): string {
  return text.replace(emailPattern, "[email]").replace(tokenParameter, "$1=[redacted]");
}

const redactedPaths = [
  "password",
  "newPassword",
  "token",
  "email",
  "to",
  "recipient",
  "secret",
  "authorization",
  "cookie",
  "*.password",
  "*.token",
  "*.email",
  "*.to",
  "*.recipient",
  "*.authorization",
  "*.cookie",
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
];

export function createLogger(level = process.env.LOG_LEVEL ?? "info", destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: redactedPaths, censor: "[redacted]" },
      serializers: {
        err: (error: unknown) => {
          const serialized = pino.stdSerializers.err(error as Error);
          return { ...serialized, message: scrub(serialized.message ?? ""), stack: scrub(serialized.stack ?? "") };
        },
      },
      hooks: {
        // Free-text messages may quote an address or a link; scrub them like the fields.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === "string" ? scrub(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

let shared: Logger | undefined;

/** The process-wide logger: standard output, one write per turn of the event loop (log-destination.server.ts). */
export function getLogger(): Logger {
  shared ??= createLogger(undefined, batchedStdout());
  return shared;
}
