import { sql } from "kysely";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { createTestDatabase, describeEachDatabase, describePostgres } from "~tests/helpers/databases";
import { migrateToLatest, migrations } from "~/db/migrate.server";

describeEachDatabase("migrations", (database) => {
  it("creates every table and records each migration once", async () => {
    const { db } = database().handle;
    const row = await db.selectFrom("app_meta").select("value").where("key", "=", "created_at").executeTakeFirstOrThrow();
    expect(Date.parse(row.value)).not.toBeNaN();
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
  });

  it("is a no-op when run again", async () => {
    expect(await migrateToLatest(database().handle)).toEqual([]);
  });

  it("enforces foreign keys", async () => {
    const { db, dialect } = database().handle;
    if (dialect === "sqlite") {
      const pragma = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      expect(pragma.rows[0]?.foreign_keys).toBe(1);
    }
    await db.schema.createTable("fk_parent").addColumn("id", "integer", (c) => c.primaryKey()).execute();
    await db.schema
      .createTable("fk_child")
      .addColumn("parent_id", "integer", (c) => c.notNull().references("fk_parent.id"))
      .execute();
    await expect(sql`insert into fk_child (parent_id) values (42)`.execute(db)).rejects.toThrow();
  });
});

/** Kysely's PostgreSQL migration lock (an advisory lock, kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const kyselyMigrationLock = "3853314791062309107";

describePostgres("migrations on a shared PostgreSQL database", () => {
  it("waits for another instance's migration longer than one request's statement may take, then migrates", async () => {
    const other = new pg.Client({ connectionString: inject("postgresUrl") ?? undefined });
    await other.connect();
    await other.query(`select pg_advisory_lock(${kyselyMigrationLock})`);
    const held = 4_500;
    const started = Date.now();
    const release = setTimeout(() => void other.query(`select pg_advisory_unlock(${kyselyMigrationLock})`), held);
    try {
      const database = await createTestDatabase("postgres");
      expect(Date.now() - started).toBeGreaterThanOrEqual(held);
      const tables = await sql<{ count: string }>`select count(*) as count from information_schema.tables where table_schema = ${database.handle.schema}`.execute(database.handle.db);
      expect(Number(tables.rows[0]?.count)).toBeGreaterThan(20);
      await database.drop();
    } finally {
      clearTimeout(release);
      await other.end();
    }
  });

  it("migrate several schemas of one database at the same time, each with its own migration tables", async () => {
    const databases = await Promise.all([1, 2, 3].map(() => createTestDatabase("postgres")));
    try {
      for (const { handle } of databases) {
        const tables = await sql<{ table_name: string }>`
          select table_name from information_schema.tables
          where table_schema = ${handle.schema} and table_name like 'kysely_migration%' order by table_name`.execute(handle.db);
        expect(tables.rows.map((row) => row.table_name)).toEqual(["kysely_migration", "kysely_migration_lock"]);
      }
    } finally {
      await Promise.all(databases.map((database) => database.drop()));
    }
  });
});
