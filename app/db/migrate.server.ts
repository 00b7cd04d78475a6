import { Migrator, type Kysely, type Migration } from "kysely";
import type { DatabaseHandle } from "./connection.server";

/**
 * One migration set for SQLite and PostgreSQL. Files in ./migrations, and a way in's own beside its unit
 * (app/features/auth/ways-in/<name>/NNNN-topic.ts), are picked up by name (`NNNN-topic.ts`, each exporting `up` and
 * optionally `down`) and run in name order. The name alone is what a database records as run.
 */
const modules = import.meta.glob<Migration>(["./migrations/*.ts", "/app/features/auth/ways-in/*/[0-9][0-9][0-9][0-9]-*.ts"], { eager: true });

export const migrations: Record<string, Migration> = Object.fromEntries(
  Object.entries(modules).map(([file, migration]) => [file.replace(/^.*\/|\.ts$/g, ""), migration]),
);
if (Object.keys(migrations).length !== Object.keys(modules).length) throw new Error("Two migration files share one name (app/db/migrations, app/features/auth/ways-in)");

/**
 * Migrations see the database untyped (they describe the schema the types are written against). On PostgreSQL
 * the migration tables' schema is named: otherwise Kysely finds another schema's `kysely_migration_lock` in the
 * same database and skips creating its own. They run on a connection of their own without the requests' statement
 * timeout: a second instance starting meanwhile waits on the migration lock until the first one is done.
 */
export async function migrateToLatest(database: Pick<DatabaseHandle, "db" | "schema" | "openForMigrations">): Promise<string[]> {
  const migrating = database.openForMigrations?.();
  try {
    const migrator = new Migrator({
      db: (migrating ?? database).db as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
      // Features number their migrations in their own ranges (CONTRIBUTING.md), so a release can bring a migration
      // numbered below one a live database already ran (0110 after 0200): run it instead of refusing to start.
      allowUnorderedMigrations: true,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).map((result) => result.migrationName);
  } finally {
    await migrating?.db.destroy();
  }
}
