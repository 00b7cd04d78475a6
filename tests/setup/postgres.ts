import pg from "pg";
import type { TestProject } from "vitest/node";

export const defaultTestPostgresUrl = "postgres://postgres@127.0.0.1:5432/test";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the PostgreSQL suites connect, or null when no server answers (never null in CI). */
    postgresUrl: string | null;
  }
}

/** Finds out once whether PostgreSQL answers. Without it the PostgreSQL runs are skipped, except in CI. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? defaultTestPostgresUrl;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    project.provide("postgresUrl", url);
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(`CI=true requires PostgreSQL at ${url}: ${(error as Error).message}`);
    }
    console.warn(`PostgreSQL not reachable at ${url}: its suites are skipped on this machine.`);
    project.provide("postgresUrl", null);
  } finally {
    await client.end().catch(() => {});
  }
}
