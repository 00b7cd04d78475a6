import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { storedCustomMetadata, type MetadataInput } from "./metadata-input.server";
import type { ObjectLookup } from "./object-lookup.server";
import { updateObject, type ObjectRow } from "./object-rows.server";
import type { QuotaCheck } from "./storage-quota.server";
import type { Caller } from "./storage-rules.server";
import { toWire } from "./wire-resource.server";

/** A file's metadata, read and changed in place (the bytes stay; custom metadata that grows counts against the quota). */
export function createObjectMetadata({ db, objects, quota }: { db: Kysely<Database>; objects: ObjectLookup; quota: QuotaCheck }) {
  return {
    async getMetadata(caller: Caller | null, bucket: string, path: string) {
      objects.requireObjectAccess(caller, bucket, path);
      return toWire(await objects.existingObject(bucket, path));
    },

    async updateMetadata(caller: Caller | null, bucket: string, path: string, patch: MetadataInput) {
      objects.requireObjectAccess(caller, bucket, path);
      const row = await objects.existingObject(bucket, path);
      const pick = <T>(value: T | null | undefined, current: T | null) => (value === undefined ? current : value);
      const custom =
        patch.metadata === undefined
          ? row.custom_metadata
          : patch.metadata === null
            ? null
            : storedCustomMetadata({ ...(row.custom_metadata ? JSON.parse(row.custom_metadata) : {}), ...patch.metadata });
      const grown = (custom ? Buffer.byteLength(custom) : 0) - (row.custom_metadata ? Buffer.byteLength(row.custom_metadata) : 0);
      if (grown > 0 && row.owner_id) await quota.requireRoom(row.owner_id, grown);
      const updated: ObjectRow = {
        ...row,
        cache_control: pick(patch.cacheControl, row.cache_control),
        content_disposition: pick(patch.contentDisposition, row.content_disposition),
        content_encoding: pick(patch.contentEncoding, row.content_encoding),
        content_language: pick(patch.contentLanguage, row.content_language),
        custom_metadata: custom,
        metageneration: row.metageneration + 1,
        updated_at: new Date().toISOString(),
      };
      await updateObject(db, updated);
      return toWire(updated);
    },
  };
}
