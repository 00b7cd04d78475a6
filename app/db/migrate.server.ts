import { Migrator, type Kysely, type Migration } from "kysely";

/**
 * One migration set for SQLite and PostgreSQL. Files in ./migrations are picked up by name
 * (`NNNN-topic.ts`, each exporting `up` and optionally `down`) and run in name order.
 */
const modules = import.meta.glob<Migration>("./migrations/*.ts", { eager: true });

export const migrations: Record<string, Migration> = Object.fromEntries(
  Object.entries(modules).map(([file, migration]) => [file.replace(/^.*\/|\.ts$/g, ""), migration]),
);

// Migrations see the database untyped (they describe the schema the types are written against).
export async function migrateToLatest<Schema>(db: Kysely<Schema>): Promise<string[]> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((result) => result.migrationName);
}
