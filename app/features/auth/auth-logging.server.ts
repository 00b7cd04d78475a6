import type { BetterAuthOptions } from "better-auth";
import { getLogger } from "~/services/logger.server";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { noteRequestError } from "~/services/request-context.server";

/**
 * Better Auth's logging and error reporting, routed into the site's: every error it meets is noted against
 * the request (so the host can answer 503 for an unreachable database, and a duplicate key maps to its code),
 * and its log lines become structured ones. A duplicate sign-up is expected traffic: no stack for it.
 */
export function authLogging(): Pick<BetterAuthOptions, "logger" | "onAPIError"> {
  return {
    logger: {
      level: "error",
      log: (level, message, ...args) => {
        args.forEach(noteRequestError);
        const err = args.find((arg) => arg instanceof Error);
        if (err && isUniqueViolation(err)) return getLogger().info({ authMessage: message }, "duplicate key refused");
        const method = level === "error" ? "error" : level === "warn" ? "warn" : "debug";
        getLogger()[method]({ err, authMessage: message }, "sign-in layer");
      },
    },
    // The request log writes 5xx answers with their error; 4xx are expected and need no stack.
    onAPIError: { onError: (error) => noteRequestError(error) },
  };
}
