import { readCappedBody } from "~/services/capped-body.server";
import { StorageFailure } from "./storage-rules.server";

/**
 * Reading upload bodies with a ceiling: a declared or actual size over `limit` stops the read at once
 * (403 with the too-large reason, as a Firebase size rule answers), so nobody can fill the memory.
 */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  const body = await readCappedBody(request, limit);
  if (!body) throw new StorageFailure(403, "storage/unauthorized", "too-large");
  return body;
}

/**
 * The two parts of a v0 multipart upload (`multipart/related`): the JSON metadata, then the bytes.
 * The bytes are taken exactly as sent between the boundaries, binary-safe.
 */
export function parseMultipartRelated(contentType: string, body: Buffer): { metadata: unknown; bytes: Buffer } {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new StorageFailure(400, "storage/invalid-argument");
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const contentStart = start + delimiter.length;
    if (body.subarray(contentStart, contentStart + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, contentStart);
    if (next === -1) break;
    // Each part sits between "\r\n" after a delimiter and "\r\n" before the next.
    parts.push(body.subarray(contentStart + 2, next - 2));
    start = next;
  }
  if (parts.length !== 2) throw new StorageFailure(400, "storage/invalid-argument");
  const [head, file] = parts.map((part) => {
    const split = part.indexOf("\r\n\r\n");
    if (split === -1) throw new StorageFailure(400, "storage/invalid-argument");
    return part.subarray(split + 4);
  }) as [Buffer, Buffer];
  try {
    return { metadata: JSON.parse(head.toString("utf8")), bytes: file };
  } catch {
    throw new StorageFailure(400, "storage/invalid-argument");
  }
}
