import { APIError } from "better-auth/api";
import type { Transaction } from "kysely";
import type { DatabaseHandle } from "~/db/connection.server";
import type { Database } from "~/db/schema";

/**
 * The last way into an account stays (PRODUCT §3 account settings: the last method can never be removed). An
 * account's ways in are its sign-in methods (the password, each provider) and its passkeys: an account with a
 * passkey and Google may drop Google, and the last passkey of an account with nothing else stays.
 *
 * The one check for both (`/sign-in-methods/remove`, `/passkey/delete`): `removeWayIn` runs the removal in a
 * transaction holding the user's row (FOR UPDATE on PostgreSQL; SQLite has one writer), counts what is left and
 * rolls the removal back, its security notice with it, when nothing is. Two removals at once, a method and a
 * passkey alike, cannot leave an account without a way in.
 */
export async function removeWayIn<T>(
  { db, dialect }: DatabaseHandle,
  userId: string,
  remove: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await trx.selectFrom("user").select("id").where("id", "=", userId).forUpdate().execute();
    const removed = await remove(trx);
    if ((await waysInLeft(trx, userId)) === 0) {
      throw new APIError("BAD_REQUEST", { code: "FAILED_TO_UNLINK_LAST_ACCOUNT", message: "The last way in stays" });
    }
    return removed;
  });
}

async function waysInLeft(trx: Transaction<Database>, userId: string): Promise<number> {
  const methods = await trx.selectFrom("account").select((eb) => eb.fn.countAll<number | string>().as("n")).where("userId", "=", userId).executeTakeFirst();
  const passkeys = await trx.selectFrom("passkey").select((eb) => eb.fn.countAll<number | string>().as("n")).where("user_id", "=", userId).executeTakeFirst();
  const phone = await trx.selectFrom("user").select(["phoneNumber", "phoneNumberVerified"]).where("id", "=", userId).executeTakeFirst();
  return Number(methods?.n ?? 0) + Number(passkeys?.n ?? 0) + (phone?.phoneNumber && phone.phoneNumberVerified ? 1 : 0);
}
