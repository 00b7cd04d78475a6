import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

/** The mail outbox's waiting messages (neither sent nor given up) for the metrics: how many, and the oldest's time. */
export async function outboxBacklog(db: Kysely<Database>): Promise<{ depth: number; oldestAt: string | null }> {
  const row = await db
    .selectFrom("mail_outbox")
    .select((eb) => [eb.fn.countAll<number | string>().as("depth"), eb.fn.min("created_at").as("oldest")])
    .where("sent_at", "is", null)
    .where("failed_at", "is", null)
    .executeTakeFirst();
  return { depth: Number(row?.depth ?? 0), oldestAt: (row?.oldest as string | null | undefined) ?? null };
}
