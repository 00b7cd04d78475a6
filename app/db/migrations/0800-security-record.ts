import { sql, type Kysely } from "kysely";

// The security record (app/features/security-record): one append-only row per security event, each carrying the
// hash of the row before it, and a one-row head that holds the newest hash and where the chain now starts
// (retention removes the oldest rows and moves the anchor). No foreign key to the account: the record outlives it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("security_record")
    .addColumn("seq", "bigint", (c) => c.primaryKey())
    .addColumn("at", "varchar(30)", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("actor_id", "text")
    .addColumn("event", "varchar(60)", (c) => c.notNull())
    .addColumn("outcome", "varchar(20)", (c) => c.notNull())
    .addColumn("code", "varchar(100)")
    .addColumn("ip", "varchar(64)")
    .addColumn("user_agent", "varchar(300)")
    .addColumn("detail", "text")
    .addColumn("prev_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("hash", "varchar(64)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("security_record_user_at").on("security_record").columns(["user_id", "at"]).execute();
  await db.schema.createIndex("security_record_at").on("security_record").column("at").execute();
  await db.schema
    .createTable("security_record_head")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("hash", "varchar(64)", (c) => c.notNull())
    .addColumn("anchor_seq", "bigint", (c) => c.notNull())
    .addColumn("anchor_hash", "varchar(64)", (c) => c.notNull())
    .execute();
  const genesis = "0".repeat(64);
  await sql`insert into security_record_head (id, seq, hash, anchor_seq, anchor_hash) values (1, 0, ${genesis}, 0, ${genesis})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("security_record_head").execute();
  await db.schema.dropTable("security_record").execute();
}
