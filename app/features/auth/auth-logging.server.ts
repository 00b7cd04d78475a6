import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { decodeJwt } from "jose";
import { authEndpointFor, authPaths, endpointsWhere } from "./auth-endpoints";
import { auditOutcome } from "./audit-outcome.server";
import { getLogger } from "~/services/logger.server";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { noteRequestError } from "~/services/request-context.server";
import { countSignIn } from "~/services/metrics.server";
import { clientIpHeader } from "~/services/client-ip.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { keepSecurityEvents, type SecurityEvent } from "~/features/security-record/security-record.server";

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
        getLogger()[method]({ err, authMessage: message, answer: err ? undefined : fetchFailure(args) }, "sign-in layer");
      },
    },
    // An error that is not an API answer (a database that is away, a bug) is thrown on to serveAuthRequest, which
    // notes it for the request log (503 or 500 with its stack, as JSON); Better Auth's router would otherwise
    // print it with console.error as "# SERVER_ERROR:". API answers, 4xx among them, stay answers.
    onAPIError: { throw: true },
  };
}

/**
 * A provider's refusal as Better Auth's fetch reports it (a plain object, not an Error): its status and OAuth error
 * code, never its body's other fields, which may carry tokens.
 */
function fetchFailure(args: unknown[]): { status?: unknown; error?: unknown; description?: unknown } | undefined {
  const failure = args.find((arg): arg is { status?: unknown; error?: { error?: unknown; error_description?: unknown } } => typeof arg === "object" && arg !== null && "status" in arg);
  if (!failure) return undefined;
  const body = typeof failure.error === "object" && failure.error !== null ? failure.error : {};
  return { status: failure.status, error: body.error, description: body.error_description };
}

/**
 * The audit log of the sign-in layer (ASVS 16.3.1): one JSON line per outcome of every endpoint whose row names
 * an `audit` event — which event, success or refusal with its code, and the user id when one is known. Never an
 * email, a password or a token. The same event lands once in the security record (the kept evidence, with the
 * client's address and browser); a refused attempt on a typed email is recorded against that account.
 */
export function auditLog(database: DatabaseHandle): BetterAuthPlugin {
  return {
    id: "audit-log",
    hooks: {
      before: [
        {
          // Sign-out ends the session before the outcome is known: whose it was is read first.
          matcher: endpointsWhere((row) => Boolean(row.audit) && row.session === "ends" && row.needs === "nothing"),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx).catch(() => null);
            if (session && ctx.request) endingSessionUser.set(ctx.request, session.user.id);
          }),
        },
      ],
      after: [
        {
          matcher: endpointsWhere((row) => row.audit),
          handler: createAuthMiddleware(async (ctx) => {
            const row = authEndpointFor(ctx);
            const answer = await auditOutcome(ctx.context.returned);
            const handed = handedToAudit(ctx);
            // The way to a provider is no outcome yet: the provider's callback records how it ends.
            if (!answer) return recordAuditEvent(database, ...handed);
            const refused = answer.outcome === "refused" ? answer : undefined;
            // A provider's callback that made no session linked the provider to the signed-in account (its cookie).
            const linked = !refused && row?.path === authPaths.callbackId && !ctx.context.newSession;
            const linkingUser = linked ? (await getSessionFromCtx(ctx).catch(() => null))?.user.id : undefined;
            const userId = ctx.context.newSession?.user.id ?? ctx.context.session?.user.id ?? linkingUser;
            const event = linked ? "sign-in-method-link" : (row?.audit ?? "unknown");
            getLogger().info(
              {
                authEvent: event,
                outcome: answer.outcome,
                ...(refused ? { status: refused.status, code: refused.code } : {}),
                ...(userId ? { userId } : {}),
              },
              "sign-in layer event",
            );
            // Sign-ins by way in (the endpoint's path, a bounded set) for the metrics: the rows whose `metric` says so
            // (a provider's callback that linked the provider to the signed-in account signed no one in).
            if (row?.metric === "sign-in" && !linked) countSignIn(row.path, answer.outcome);
            const email = (ctx.body as { email?: unknown } | undefined)?.email ?? (refused ? undefined : linkEmail(ctx.query?.token));
            const subject =
              userId ?? (ctx.request && endingSessionUser.get(ctx.request)) ?? (typeof email === "string" ? await userIdByEmail(database, email) : undefined);
            await recordAuditEvent(database, ...handed, {
              event,
              outcome: answer.outcome,
              code: refused?.code,
              userId: subject,
              ip: ctx.headers?.get(clientIpHeader),
              userAgent: ctx.headers?.get("user-agent"),
            });
          }),
        },
      ],
    },
  };
}

const endingSessionUser = new WeakMap<Request, string>();

/** The address a verification link (a signed token the endpoint has just accepted) was for. */
function linkEmail(token: unknown): string | undefined {
  if (typeof token !== "string") return undefined;
  try {
    const { email } = decodeJwt(token);
    return typeof email === "string" ? email : undefined;
  } catch {
    return undefined;
  }
}

async function userIdByEmail(database: DatabaseHandle, email: string): Promise<string | undefined> {
  const row = await database.db.selectFrom("user").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  return row?.id;
}

/**
 * Writes events to the security record from the sign-in layer, in one append, outside the request's deadline. A
 * record that cannot be written yet is logged with the event and written again until it is (keepSecurityEvents),
 * rather than failing a sign-in that already happened or being lost.
 */
export async function recordAuditEvent(database: DatabaseHandle, ...entries: SecurityEvent[]): Promise<void> {
  await keepSecurityEvents(database, entries, (err, kept) => {
    noteRequestError(err);
    getLogger().error({ err, authEvent: kept.event }, "security record not written yet; trying again");
  });
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Events an earlier hook of this request handed to its audit entry; keyed by the request's hook context. */
const withAuditEntry = new WeakMap<object, SecurityEvent[]>();

/**
 * Records `entry` together with this request's own audit event, in the same append (one transaction instead of
 * two), when its endpoint has one (its row names an `audit` event): the audit hook, the last of the hooks, writes
 * both before the answer leaves. An endpoint without an audit event records it at once.
 */
export async function recordWithAuditEntry(ctx: HookContext, database: DatabaseHandle, entry: SecurityEvent): Promise<void> {
  if (!authEndpointFor(ctx)?.audit) return recordAuditEvent(database, entry);
  const handed = withAuditEntry.get(ctx.context) ?? [];
  withAuditEntry.set(ctx.context, [...handed, entry]);
}

/** What earlier hooks handed to this request's audit entry (taken once). */
function handedToAudit(ctx: HookContext): SecurityEvent[] {
  const handed = withAuditEntry.get(ctx.context) ?? [];
  withAuditEntry.delete(ctx.context);
  return handed;
}
