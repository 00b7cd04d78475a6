import { sql } from "kysely";
import type { Redis } from "ioredis";
import type { DatabaseHandle } from "~/db/connection.server";
import { redisAnswers } from "~/services/redis.server";

/** How long readiness waits for each dependency: a load balancer asks often and must not queue up. */
export const READINESS_TIMEOUT_MS = 1_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}

export interface Readiness {
  ok: boolean;
  database: "ok" | "unreachable";
  redis: "ok" | "unreachable" | "not-configured";
}

/**
 * /readyz: the database and (when configured) Redis each answer within a second. A load balancer sends traffic
 * only to ready instances; /healthz only says the process runs.
 */
export async function readiness(database: DatabaseHandle, redis: Redis | undefined): Promise<[Readiness, 200 | 503]> {
  const [databaseOk, redisOk] = await Promise.all([
    within(READINESS_TIMEOUT_MS, sql`select 1`.execute(database.db)).then(() => true, () => false),
    redis ? redisAnswers(redis, READINESS_TIMEOUT_MS).then(() => true, () => false) : Promise.resolve(undefined),
  ]);
  const report: Readiness = {
    ok: databaseOk && redisOk !== false,
    database: databaseOk ? "ok" : "unreachable",
    redis: redisOk === undefined ? "not-configured" : redisOk ? "ok" : "unreachable",
  };
  return [report, report.ok ? 200 : 503];
}
