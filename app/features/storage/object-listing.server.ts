import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ObjectLookup } from "./object-lookup.server";
import { pathsUnder } from "./object-rows.server";
import { requireAccess, StorageFailure, type Caller } from "./storage-rules.server";

export type ListResult = { prefixes: string[]; items: { name: string; bucket: string }[]; nextPageToken?: string };

export function createObjectListing({ db, objects }: { db: Kysely<Database>; objects: ObjectLookup }) {
  return {
    /** Objects and sub-folders under a folder the caller may read, in pages. */
    async list(
      caller: Caller | null,
      bucket: string,
      query: { prefix: string; delimiter?: string; pageToken?: string; maxResults: number },
    ): Promise<ListResult> {
      objects.checkBucket(bucket);
      if (query.prefix === "" || query.prefix === "/") throw new StorageFailure(400, "storage/invalid-root-operation");
      requireAccess(caller, query.prefix);
      const after = query.pageToken ? Buffer.from(query.pageToken, "base64url").toString("utf8") : "";
      const entries: { key: string; prefix: boolean }[] = [];
      for (const path of await pathsUnder(db, bucket, query.prefix)) {
        const rest = path.slice(query.prefix.length);
        const cut = query.delimiter ? rest.indexOf(query.delimiter) : -1;
        const key = cut === -1 ? path : query.prefix + rest.slice(0, cut + query.delimiter!.length);
        if (entries.at(-1)?.key !== key) entries.push({ key, prefix: cut !== -1 });
      }
      const remaining = entries.filter((entry) => Buffer.compare(Buffer.from(entry.key), Buffer.from(after)) > 0);
      const page = remaining.slice(0, query.maxResults);
      const last = page.at(-1);
      return {
        prefixes: page.filter((entry) => entry.prefix).map((entry) => entry.key),
        items: page.filter((entry) => !entry.prefix).map((entry) => ({ name: entry.key, bucket })),
        ...(remaining.length > page.length && last ? { nextPageToken: Buffer.from(last.key).toString("base64url") } : {}),
      };
    },
  };
}
