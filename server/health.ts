import { sql } from "kysely";
import type { Redis } from "ioredis";
import type { DatabaseHandle } from "~/db/connection.server";
import { freeBytesAt } from "~/services/disk-space.server";
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
  /** DATA_DIR's disk: "low" below the upload floor (uploads refused, the rest works), "full" when writes fail. */
  disk: "ok" | "low" | "full";
  diskFreeBytes: number;
}

/** Below this the database's own writes may fail: the instance is not ready. */
export const DISK_FULL_BYTES = 1024 * 1024;

export interface DiskCheck {
  directory: string;
  /** STORAGE_MIN_FREE_BYTES: the floor under which uploads stop. */
  lowBytes: number;
}

/**
 * /readyz: the database and (when configured) Redis each answer within a second, and DATA_DIR's disk is not
 * full. A load balancer sends traffic only to ready instances; /healthz only says the process runs.
 */
export async function readiness(database: DatabaseHandle, redis: Redis | undefined, disk: DiskCheck): Promise<[Readiness, 200 | 503]> {
  const [databaseOk, redisOk, free] = await Promise.all([
    within(READINESS_TIMEOUT_MS, sql`select 1`.execute(database.db)).then(() => true, () => false),
    redis ? redisAnswers(redis, READINESS_TIMEOUT_MS).then(() => true, () => false) : Promise.resolve(undefined),
    freeBytesAt(disk.directory).catch(() => 0),
  ]);
  const diskState = free < DISK_FULL_BYTES ? "full" : free < disk.lowBytes ? "low" : "ok";
  const report: Readiness = {
    ok: databaseOk && redisOk !== false && diskState !== "full",
    database: databaseOk ? "ok" : "unreachable",
    redis: redisOk === undefined ? "not-configured" : redisOk ? "ok" : "unreachable",
    disk: diskState,
    diskFreeBytes: free,
  };
  return [report, report.ok ? 200 : 503];
}
