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
  /** DATA_DIR's disk (the storage's disk guard): "low" when uploads may be refused, "full" when out of room. */
  disk: "ok" | "low" | "full";
  diskFreeBytes: number;
}

export type DiskState = Pick<Readiness, "disk" | "diskFreeBytes">;

/**
 * /readyz: the database and (when configured) Redis each answer within a second, and DATA_DIR's disk is not
 * full. A load balancer sends traffic only to ready instances; /healthz only says the process runs.
 */
export async function readiness(
  database: DatabaseHandle,
  redis: Redis | undefined,
  disk: () => Promise<DiskState>,
): Promise<[Readiness, 200 | 503]> {
  const [databaseOk, redisOk, diskState] = await Promise.all([
    within(READINESS_TIMEOUT_MS, sql`select 1`.execute(database.db)).then(() => true, () => false),
    redis ? redisAnswers(redis, READINESS_TIMEOUT_MS).then(() => true, () => false) : Promise.resolve(undefined),
    disk().catch((): DiskState => ({ disk: "full", diskFreeBytes: 0 })),
  ]);
  const report: Readiness = {
    ok: databaseOk && redisOk !== false && diskState.disk !== "full",
    database: databaseOk ? "ok" : "unreachable",
    redis: redisOk === undefined ? "not-configured" : redisOk ? "ok" : "unreachable",
    ...diskState,
  };
  return [report, report.ok ? 200 : 503];
}
