/**
 * Stored file metadata: the original §3 fields as our client hands them out, and the v0 protocol's wire
 * form (`name` is the full path, `size` a decimal string, custom metadata under `metadata`), which the
 * Firebase client reads the same way.
 */
export interface StoredFileMetadata {
  bucket: string;
  fullPath: string;
  name: string;
  size: number;
  contentType: string;
  timeCreated: string;
  updated: string;
  md5Hash: string;
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  customMetadata?: Record<string, string>;
  /** Comma-separated download tokens. */
  downloadTokens: string;
}

export interface WireObjectResource {
  kind: "storage#object";
  id: string;
  bucket: string;
  name: string;
  generation: string;
  metageneration: string;
  size: string;
  contentType: string;
  timeCreated: string;
  updated: string;
  md5Hash: string;
  storageClass: "STANDARD";
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  metadata?: Record<string, string>;
  downloadTokens: string;
}

export function fromWire(resource: WireObjectResource): StoredFileMetadata {
  const segments = resource.name.split("/");
  return {
    bucket: resource.bucket,
    fullPath: resource.name,
    name: segments[segments.length - 1] ?? resource.name,
    size: Number(resource.size),
    contentType: resource.contentType,
    timeCreated: resource.timeCreated,
    updated: resource.updated,
    md5Hash: resource.md5Hash,
    cacheControl: resource.cacheControl,
    contentDisposition: resource.contentDisposition,
    contentEncoding: resource.contentEncoding,
    contentLanguage: resource.contentLanguage,
    customMetadata: resource.metadata,
    downloadTokens: resource.downloadTokens,
  };
}
