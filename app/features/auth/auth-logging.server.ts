import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { authEndpointFor, endpointsWhere } from "./auth-endpoints";
import { getLogger } from "~/services/logger.server";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { noteRequestError } from "~/services/request-context.server";

/**
 * Better Auth's logging and error reporting, routed into the site's: every error it logs is noted against the
 * request (so the host can answer 503 for an unreachable database, and a duplicate key maps to its code), and its
 * log lines become structured ones. A duplicate sign-up is expected traffic: no stack for it.
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
    // An error that is not an API answer (a database that is away, a bug) is thrown on to serveAuthRequest, which
    // notes it for the request log (503 or 500 with its stack, as JSON); Better Auth's router would otherwise
    // print it with console.error as "# SERVER_ERROR:". API answers, 4xx among them, stay answers.
    onAPIError: { throw: true },
  };
}

/**
 * The audit log of the sign-in layer (ASVS 16.3.1): one JSON line per outcome of every endpoint whose row names
 * an `audit` event — which event, success or refusal with its code, and the user id when one is known. Never an
 * email, a password or a token.
 */
export function auditLog(): BetterAuthPlugin {
  return {
    id: "audit-log",
    hooks: {
      after: [
        {
          matcher: endpointsWhere((row) => row.audit),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const refused = isAPIError(returned) ? returned : undefined;
            const userId = ctx.context.newSession?.user.id ?? ctx.context.session?.user.id;
            getLogger().info(
              {
                authEvent: authEndpointFor(ctx)?.audit,
                outcome: refused ? "refused" : "success",
                ...(refused ? { status: refused.statusCode, code: refused.body?.code } : {}),
                ...(userId ? { userId } : {}),
              },
              "sign-in layer event",
            );
          }),
        },
      ],
    },
  };
}
