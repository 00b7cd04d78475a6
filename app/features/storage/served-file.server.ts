import type { WireObjectResource } from "./file-metadata";

/**
 * Headers of a served file. The disposition is rebuilt from the stored one's type and the file's own name,
 * never echoed, so no stored value can inject a header or a misleading file name.
 */
export function contentDisposition(resource: Pick<WireObjectResource, "name" | "contentDisposition">): string {
  const type = /^attachment/i.test(resource.contentDisposition ?? "") ? "attachment" : "inline";
  const name = resource.name.split("/").at(-1) ?? "file";
  const ascii = name.replace(/[^\x20-\x7e]|["\\;]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A download link carries a token that changes with every upload, so its answer can be cached for a year.
 * Files under `users/` (children's photos) stay out of shared caches; blog images may sit in a CDN.
 * Without a token (the owner reading with their sign-in) nothing is kept.
 */
export function downloadCacheControl(withToken: boolean, publicFile: boolean): string {
  if (!withToken) return "private, no-cache";
  return `${publicFile ? "public" : "private"}, max-age=31536000, immutable`;
}

/** One byte range of a `Range` header (inclusive ends); null to send everything. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
