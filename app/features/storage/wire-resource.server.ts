import type { WireObjectResource } from "./file-metadata";
import type { ObjectRow } from "./object-rows.server";

/** A stored row as the protocol's object resource (what the Firebase SDKs read back). */
export function toWire(row: ObjectRow): WireObjectResource {
  const optional = <K extends string>(key: K, value: string | null) => (value === null ? {} : { [key]: value });
  return {
    kind: "storage#object",
    id: `${row.bucket}/${row.path}/${row.generation}`,
    bucket: row.bucket,
    name: row.path,
    generation: row.generation,
    metageneration: String(row.metageneration),
    size: String(row.size),
    contentType: row.content_type,
    timeCreated: row.created_at,
    updated: row.updated_at,
    md5Hash: row.md5_hash,
    storageClass: "STANDARD",
    ...optional("cacheControl", row.cache_control),
    ...optional("contentDisposition", row.content_disposition),
    ...optional("contentEncoding", row.content_encoding),
    ...optional("contentLanguage", row.content_language),
    ...(row.custom_metadata ? { metadata: JSON.parse(row.custom_metadata) as Record<string, string> } : {}),
    downloadTokens: row.download_tokens,
  };
}
