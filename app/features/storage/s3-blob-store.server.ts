import type * as S3Sdk from "@aws-sdk/client-s3";
import type { BlobEntry, BlobStore } from "./blob-store.server";
import { checkBlobKey } from "./blob-store.server";

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  prefix: string;
}

/**
 * The S3-compatible driver (AWS S3, Cloudflare R2, MinIO; docs/storage.md). The bucket stays private: every
 * read goes through the site, which applies the rules and the download tokens.
 */
export function s3BlobStore(settings: S3Settings): BlobStore {
  let loading: Promise<{ client: S3Sdk.S3Client; sdk: typeof S3Sdk }> | undefined;
  const connect = () =>
    (loading ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
      }),
    })));
  const keyOf = (key: string) => {
    checkBlobKey(key);
    return `${settings.prefix}${key}`;
  };
  return {
    async put(key, bytes, contentType) {
      const { client, sdk } = await connect();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: settings.bucket, Key: keyOf(key), Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      const { client, sdk } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: keyOf(key) }));
        if (!answer.Body) return null;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(key) {
      const { client, sdk } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: keyOf(key) }));
    },
    async list(folder) {
      const { client, sdk } = await connect();
      const entries: BlobEntry[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `${settings.prefix}${folder}/`, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(settings.prefix.length);
          if (key) entries.push({ key, modified: object.LastModified?.getTime() ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return entries;
    },
  };
}
