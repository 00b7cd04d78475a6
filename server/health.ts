import { sql } from "kysely";
import { getDatabase } from "~/db/db.server";

/** Liveness plus a real round trip to the database, for load balancers and the self-test page. */
export async function healthCheck(): Promise<[{ ok: boolean; database: string }, 200 | 503]> {
  try {
    await sql`select 1`.execute(getDatabase().db);
    return [{ ok: true, database: getDatabase().dialect }, 200];
  } catch {
    return [{ ok: false, database: "unreachable" }, 503];
  }
}
