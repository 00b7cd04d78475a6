import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { usageOf } from "./object-rows.server";
import { openSince } from "./resumable-uploads.server";
import { StorageFailure } from "./storage-rules.server";

/** The per-user quota, counting files, their custom metadata and unfinished uploads. */
export function createQuotaCheck(db: Kysely<Database>, limits: { userQuotaBytes: number }) {
  return {
    /**
     * Refuses a change that would take `uid`'s usage past the quota by `growth` bytes (less than nothing when a
     * replace frees more than it adds); `finishing` names the resumable upload a store completes (not counted twice).
     */
    async requireRoom(uid: string, growth: number, finishing?: string) {
      const usage = await usageOf(db, uid, { openSince: openSince(), except: finishing });
      if (usage + growth > limits.userQuotaBytes) throw new StorageFailure(402, "storage/quota-exceeded");
    },
  };
}

export type QuotaCheck = ReturnType<typeof createQuotaCheck>;
