import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ObjectRow } from "./object-rows.server";
import { downloadUrl } from "./storage-paths";

/** Keeps the profile-photo link on the user row in step with `users/<uid>/avatar`. */
export function createUserImageLink(db: Kysely<Database>, siteUrl: string) {
  return {
    async setUserImage(uid: string, row: ObjectRow | null) {
      const image = row ? downloadUrl(row.bucket, row.path, row.download_tokens.split(",")[0]!, siteUrl) : null;
      await db.updateTable("user").set({ image }).where("id", "=", uid).execute();
    },
  };
}

export type UserImageLink = ReturnType<typeof createUserImageLink>;
