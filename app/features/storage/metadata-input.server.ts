import { z } from "zod";
import { StorageFailure } from "./storage-rules.server";

/**
 * The writable metadata a client may send on upload or PATCH (the Firebase client's writable fields). In a
 * PATCH, null removes a field. The content type is decided from the bytes and `md5Hash` is computed here, so
 * both are read and ignored; values that would make a served header unsafe are refused.
 */
const printable = /^[\x20-\x7e]*$/;
const nullable = <T extends z.ZodType>(schema: T) => schema.nullish();

/** An object's custom metadata, every PATCH merged in: at most 50 keys and 8 KiB of JSON (as Cloud Storage). */
export const customMetadataLimits = { keys: 50, bytes: 8 * 1024 };

export const metadataInputSchema = z.object({
  name: z.string().optional(),
  contentType: z.string().nullish(),
  md5Hash: z.string().nullish(),
  cacheControl: nullable(z.string().max(200).regex(printable)),
  contentDisposition: nullable(z.string().max(300).regex(/^(inline|attachment)(\s*;[\x20-\x7e]*)?$/i)),
  // A stored image is never served compressed: only the identity encoding.
  contentEncoding: nullable(z.literal("identity")),
  contentLanguage: nullable(z.string().regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/)),
  metadata: nullable(
    z
      .record(z.string().min(1).max(100), z.string().max(1024).nullable())
      .refine((record) => Object.keys(record).length <= customMetadataLimits.keys),
  ),
});

export type MetadataInput = z.infer<typeof metadataInputSchema>;

/** The stored form of custom metadata (JSON, or null when empty), refused past the limits. */
export function storedCustomMetadata(record: Record<string, string | null>): string | null {
  const kept = Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== null));
  if (Object.keys(kept).length === 0) return null;
  const json = JSON.stringify(kept);
  if (Object.keys(kept).length > customMetadataLimits.keys || Buffer.byteLength(json) > customMetadataLimits.bytes) {
    throw new StorageFailure(400, "storage/invalid-argument", "metadata-too-large");
  }
  return json;
}

export function parseMetadataInput(value: unknown): MetadataInput {
  const result = metadataInputSchema.safeParse(value ?? {});
  if (!result.success) throw new StorageFailure(400, "storage/invalid-argument");
  return result.data;
}
