import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { DatabaseHandle } from "~/db/connection.server";
import type { BlobStore } from "./blob-store.server";
import { findObject, replaceObject, type ObjectRow } from "./object-rows.server";
import { pathProblem } from "./storage-paths";

/**
 * `npm run import:firebase-storage -- --from <folder> --metadata <file>`: a Firebase Storage bucket copied to a folder
 * (`gcloud storage cp -r gs://<bucket>/* <folder>`) and its objects' metadata
 * (`gcloud storage objects list gs://<bucket> --recursive --format=json`: Cloud Storage object resources — an array,
 * a JSON API page `{ "items": […] }`, or one resource a line) land in the site's storage with the same path, content
 * type, creation time, custom metadata and `firebaseStorageDownloadTokens`, so every download URL the app or a
 * page holds keeps working once STORAGE_BUCKET is the Firebase bucket's name. The bytes are stored as they are
 * (nothing re-encoded: the URLs promise the same bytes).
 *
 * Everything is read and checked before the first write (a metadata file cut off, a missing file, a size or MD5 that
 * does not match the file): the run then writes nothing. Each object is one transaction (replaceObject); a rerun
 * skips what is already here unchanged (same MD5, tokens and metadata) and replaces what changed, so a run stopped
 * half-way is finished by the next. Bytes written before a crash and never pointed at are removed by the sweeper.
 */
export interface StorageImportOptions {
  /** The folder holding the bucket's copy: an object `a/b.png` is the file `<from>/a/b.png`. */
  from: string;
  /** The metadata file's text. */
  metadataText: string;
  /** STORAGE_BUCKET: every object must be of it. */
  bucket: string;
  dryRun?: boolean;
  progress?: (done: number, total: number) => void;
}

export interface StorageImportSummary {
  total: number;
  imported: number;
  updated: number;
  unchanged: number;
  bytes: number;
  skipped: { path: string; reason: string }[];
  dryRun: boolean;
}

/** The metadata file cannot be used, or the folder does not match it: nothing was written. */
export class StorageImportRefused extends Error {}

interface GcsObject {
  name?: unknown;
  bucket?: unknown;
  size?: unknown;
  md5Hash?: unknown;
  contentType?: unknown;
  contentEncoding?: unknown;
  contentDisposition?: unknown;
  contentLanguage?: unknown;
  cacheControl?: unknown;
  timeCreated?: unknown;
  updated?: unknown;
  generation?: unknown;
  metadata?: unknown;
  // gcloud's own field names (`gcloud storage objects list --format=json`).
  content_type?: unknown;
  creation_time?: unknown;
  update_time?: unknown;
  custom_fields?: unknown;
  md5_hash?: unknown;
  storage_url?: unknown;
}

interface Planned {
  path: string;
  file: string;
  row: Omit<ObjectRow, "blob_key" | "owner_id">;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

function readMetadata(metadataText: string): GcsObject[] {
  const trimmed = metadataText.trim();
  if (!trimmed) throw new StorageImportRefused("metadata 檔是空的。沒有寫入任何資料。");
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    if (Array.isArray(parsed)) return parsed as GcsObject[];
    if (parsed && typeof parsed === "object" && Array.isArray((parsed as { items?: unknown }).items)) return (parsed as { items: GcsObject[] }).items;
    if (parsed && typeof parsed === "object") return [parsed as GcsObject];
  } catch {
    // One resource a line, or a file cut off.
    try {
      return trimmed.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line) as GcsObject);
    } catch {
      throw new StorageImportRefused("metadata 檔不是完整的 JSON（可能被截斷了）。沒有寫入任何資料。");
    }
  }
  throw new StorageImportRefused("metadata 檔不是 Cloud Storage 物件清單。沒有寫入任何資料。");
}

async function plan(options: StorageImportOptions) {
  const objects = readMetadata(options.metadataText);
  const root = path.resolve(options.from);
  const planned: Planned[] = [];
  const skipped: StorageImportSummary["skipped"] = [];
  const problems: string[] = [];
  for (const [index, object] of objects.entries()) {
    const name = text(object.name) ?? (text(object.storage_url)?.replace(/^gs:\/\/[^/]+\//, "") || null);
    if (!name) {
      problems.push(`第 ${index + 1} 筆沒有 name`);
      continue;
    }
    const bucket = text(object.bucket) ?? (/^gs:\/\/([^/]+)\//.exec(text(object.storage_url) ?? "")?.[1] || null);
    if (bucket && bucket !== options.bucket) {
      throw new StorageImportRefused(`物件 ${name} 屬於 bucket ${bucket}，但 STORAGE_BUCKET 是 ${options.bucket}：請把 STORAGE_BUCKET 設成 Firebase 的 bucket 名稱，舊的下載網址才會繼續有效。沒有寫入任何資料。`);
    }
    // A folder placeholder (the console's "create folder") holds nothing.
    if (name.endsWith("/")) continue;
    if (pathProblem(name)) {
      skipped.push({ path: name, reason: "路徑不能用於本站的儲存空間" });
      continue;
    }
    const file = path.resolve(root, name);
    if (!file.startsWith(root + path.sep)) {
      skipped.push({ path: name, reason: "路徑跑出了 --from 資料夾" });
      continue;
    }
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) {
      problems.push(`${name}：--from 資料夾裡沒有這個檔案`);
      continue;
    }
    const size = object.size === undefined ? null : Number(object.size);
    if (size !== null && size !== stat.size) {
      problems.push(`${name}：檔案大小 ${stat.size} 與 metadata 的 ${size} 不同（複製不完整？）`);
      continue;
    }
    const custom = object.metadata ?? object.custom_fields;
    const customMetadata: Record<string, string> = {};
    if (custom && typeof custom === "object") for (const [key, value] of Object.entries(custom)) if (typeof value === "string") customMetadata[key] = value;
    const tokens = customMetadata.firebaseStorageDownloadTokens ?? "";
    delete customMetadata.firebaseStorageDownloadTokens;
    const createdAt = Date.parse(text(object.timeCreated) ?? text(object.creation_time) ?? "");
    const updatedAt = Date.parse(text(object.updated) ?? text(object.update_time) ?? "");
    const created = Number.isNaN(createdAt) ? stat.mtime.toISOString() : new Date(createdAt).toISOString();
    planned.push({
      path: name,
      file,
      row: {
        bucket: options.bucket,
        path: name,
        size: stat.size,
        content_type: text(object.contentType) ?? text(object.content_type) ?? "application/octet-stream",
        md5_hash: text(object.md5Hash) ?? text(object.md5_hash) ?? "",
        generation: text(object.generation) ?? String(Number.isNaN(createdAt) ? Date.now() * 1000 : createdAt * 1000),
        metageneration: 1,
        cache_control: text(object.cacheControl),
        content_disposition: text(object.contentDisposition),
        content_encoding: text(object.contentEncoding),
        content_language: text(object.contentLanguage),
        custom_metadata: Object.keys(customMetadata).length ? JSON.stringify(customMetadata) : null,
        download_tokens: tokens,
        created_at: created,
        updated_at: Number.isNaN(updatedAt) ? created : new Date(updatedAt).toISOString(),
      },
    });
  }
  if (problems.length) throw new StorageImportRefused(`${problems.slice(0, 20).join("\n")}${problems.length > 20 ? `\n…共 ${problems.length} 個問題` : ""}\n沒有寫入任何資料。`);
  return { planned, skipped };
}

/** Same bytes and same metadata as what is already stored: nothing to do. */
const sameAs = (row: Planned["row"], existing: ObjectRow) =>
  existing.md5_hash === row.md5_hash &&
  Number(existing.size) === Number(row.size) &&
  existing.download_tokens === row.download_tokens &&
  existing.content_type === row.content_type &&
  existing.custom_metadata === row.custom_metadata &&
  existing.created_at === row.created_at &&
  existing.cache_control === row.cache_control &&
  existing.content_disposition === row.content_disposition &&
  existing.content_encoding === row.content_encoding &&
  existing.content_language === row.content_language;

export async function importFirebaseStorage(database: DatabaseHandle, blobs: BlobStore, options: StorageImportOptions): Promise<StorageImportSummary> {
  const { planned, skipped } = await plan(options);
  const summary: StorageImportSummary = { total: planned.length + skipped.length, imported: 0, updated: 0, unchanged: 0, bytes: 0, skipped, dryRun: Boolean(options.dryRun) };
  const { db } = database;
  for (const [index, { path: objectPath, file, row }] of planned.entries()) {
    const bytes = await fs.readFile(file);
    const md5 = createHash("md5").update(bytes).digest("base64");
    if (row.md5_hash && row.md5_hash !== md5) {
      skipped.push({ path: objectPath, reason: "MD5 與 metadata 不同（檔案在複製後被改過？）" });
    } else {
      const complete = { ...row, md5_hash: md5 };
      const existing = await findObject(db, options.bucket, objectPath);
      if (existing && sameAs(complete, existing)) summary.unchanged += 1;
      else {
        if (existing) summary.updated += 1;
        else summary.imported += 1;
        summary.bytes += bytes.length;
        if (!options.dryRun) await write(database, blobs, complete, bytes);
      }
    }
    options.progress?.(index + 1, planned.length);
  }
  return summary;
}

async function write(database: DatabaseHandle, blobs: BlobStore, row: Planned["row"], bytes: Buffer) {
  const { db } = database;
  // Under users/<uid>/ the file counts against that parent's quota when the account is here (imported with its uid).
  const uid = /^users\/([^/]+)\//.exec(row.path)?.[1];
  const owner = uid ? await db.selectFrom("user").select("id").where("id", "=", uid).executeTakeFirst() : undefined;
  const blobKey = `objects/${randomBytes(16).toString("hex")}`;
  await blobs.put(blobKey, bytes, row.content_type);
  let displaced;
  try {
    displaced = await replaceObject(db, { ...row, blob_key: blobKey, owner_id: owner?.id ?? null });
  } catch (error) {
    await blobs.delete(blobKey).catch(() => undefined);
    throw error;
  }
  // replaceObject keeps the first row's creation time; an import says when Firebase made the file.
  if (displaced) await db.updateTable("storage_objects").set({ created_at: row.created_at }).where("bucket", "=", row.bucket).where("path", "=", row.path).execute();
}

export function storageSummaryText(summary: StorageImportSummary): string {
  const lines = [
    `${summary.dryRun ? "試跑（沒有寫入任何資料）：" : ""}共 ${summary.total} 個檔案：新匯入 ${summary.imported}、更新 ${summary.updated}、未變 ${summary.unchanged}、略過 ${summary.skipped.length}（寫入 ${(summary.bytes / 1024 / 1024).toFixed(1)} MB）`,
  ];
  if (summary.imported === 0 && summary.updated === 0 && summary.total > 0 && !summary.dryRun) lines.push("這次沒有任何變更（這些檔案已經匯入過）。");
  for (const { path: objectPath, reason } of summary.skipped) lines.push(`  略過 ${objectPath}：${reason}`);
  return lines.join("\n");
}
