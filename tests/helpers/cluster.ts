import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { inject } from "vitest";
import { freePorts, startSite, startTlsProxy, type SiteProcess } from "~tests/faults/site-process";

/**
 * Several instances of the built site sharing what the deploy recipe makes them share (deploy/start-cluster.sh):
 * one fresh PostgreSQL database, one Redis key prefix and, with `startCluster`, one nginx with TLS on localhost in
 * front. `stop()` removes all of it, and a start that fails half-way removes what it had started.
 */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface SharedInstances {
  /** Each on its own http://127.0.0.1:<port> (`baseURL`), in start order. */
  instances: SiteProcess[];
  /** Every instance's REDIS_KEY_PREFIX. */
  redisPrefix: string;
  /** Their one PostgreSQL database, for a test to read or change behind their back. */
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface Cluster extends SharedInstances {
  /** nginx's https://localhost:<port>: every instance's SITE_URL. */
  origin: string;
  /** nginx's self-signed certificate for localhost, for clients to trust. */
  ca: Buffer;
}

export interface InstancesOptions {
  /** Names the database and the key prefix (letters, digits, `_`), so a leftover says which test made it. */
  label: string;
  /** How many instances (default 2). */
  count?: number;
  /** Added to each instance's environment. */
  env?: Record<string, string>;
}

/** `count` instances on one fresh PostgreSQL database and one Redis key prefix (their SITE_URL stays startSite's). */
export async function startSharedInstances({ label, count = 2, env = {} }: InstancesOptions): Promise<SharedInstances> {
  const postgresUrl = inject("postgresUrl");
  if (!postgresUrl) throw new Error("PostgreSQL is not available");
  const id = randomBytes(5).toString("hex");
  const database = `${label}_${id}`;
  const redisPrefix = `${label}-${id}:`;
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  const instances: SiteProcess[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    const redis = new Redis(testRedisUrl);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  };
  try {
    await admin.query(`create database ${database}`);
    const databaseUrl = new URL(postgresUrl);
    databaseUrl.pathname = `/${database}`;
    const shared = { DATABASE_URL: databaseUrl.toString(), REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: redisPrefix, ...env };
    // All at once, as the deploy recipe starts them: Kysely's migration lock lets one migrate while the others wait.
    const started = await Promise.allSettled(Array.from({ length: count }, () => startSite(shared)));
    for (const result of started) if (result.status === "fulfilled") instances.push(result.value);
    const failed = started.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
    return { instances, redisPrefix, databaseUrl: databaseUrl.toString(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `count` instances on shared PostgreSQL and Redis behind nginx with TLS on localhost, as the deploy recipe runs them. */
export async function startCluster(options: InstancesOptions): Promise<Cluster> {
  const [tlsPort] = await freePorts(1);
  const origin = `https://localhost:${tlsPort}`;
  const shared = await startSharedInstances({ ...options, env: { SITE_URL: origin, TRUSTED_PROXIES: "127.0.0.1", ...options.env } });
  try {
    const proxy = await startTlsProxy(
      shared.instances.map((instance) => Number(new URL(instance.baseURL).port)),
      { tls: tlsPort! },
    );
    return {
      ...shared,
      origin,
      ca: proxy.ca,
      async stop() {
        await proxy.stop();
        await shared.stop();
      },
    };
  } catch (error) {
    await shared.stop();
    throw error;
  }
}
