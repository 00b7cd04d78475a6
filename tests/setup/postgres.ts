import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

export const defaultTestPostgresUrl = "postgres://postgres@127.0.0.1:5432/test";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the PostgreSQL suites connect, or null when no server answers (never null in CI). */
    postgresUrl: string | null;
    /** The start of every schema this run's test databases make (tests/helpers/databases.ts). */
    testSchemaPrefix: string;
    /** The databases this project's data-layer suites run on (vitest.config.ts: `unit` SQLite, `postgres` PostgreSQL). */
    testDialects: ("sqlite" | "postgres")[];
  }
}

/** Each run (and each project of it) its own prefix, so runs side by side never drop each other's schemas. */
const schemaPrefix = `test_${randomBytes(3).toString("hex")}_`;

/** Finds out once whether PostgreSQL answers. Without it the PostgreSQL runs are skipped, except in CI. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? defaultTestPostgresUrl;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    project.provide("postgresUrl", url);
    project.provide("testSchemaPrefix", schemaPrefix);
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(`CI=true requires PostgreSQL at ${url}: ${(error as Error).message}`);
    }
    console.warn(`PostgreSQL not reachable at ${url}: its suites are skipped on this machine.`);
    project.provide("postgresUrl", null);
    project.provide("testSchemaPrefix", schemaPrefix);
    return;
  } finally {
    await client.end().catch(() => {});
  }
  // The run's schemas are dropped once every file is done. A drop while another file's migration reads the catalog
  // can fail that migration ("schema … does not exist" from has_schema_privilege in Kysely's introspection).
  return async () => {
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    const { rows } = await cleanup.query<{ name: string }>("select nspname as name from pg_namespace where starts_with(nspname, $1)", [schemaPrefix]);
    for (const { name } of rows) await cleanup.query(`drop schema if exists "${name}" cascade`);
    await cleanup.end();
  };
}
