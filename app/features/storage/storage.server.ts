import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AuthService } from "~/features/auth/auth-service.server";
import { trustedOrigins } from "~/features/auth/trusted-origins.server";
import { registerUserDataHandler } from "~/features/auth/user-data-hooks.server";
import { localBlobStore, type BlobStore } from "./blob-store.server";
import { createCallerResolver } from "./caller.server";
import { s3BlobStore } from "./s3-blob-store.server";
import { storageRoutes } from "./storage-routes.server";
import { createStorageService } from "./storage-service.server";
import { storageUserDataHandler } from "./storage-user-data.server";
import { serveProfilePhotosFrom } from "./profile-photo.server";

/** The blob driver the configuration names: local disk under DATA_DIR, or an S3-compatible bucket. */
export function blobStoreFor(env: ServerEnv): BlobStore {
  if (env.STORAGE_DRIVER === "s3") {
    return s3BlobStore({
      bucket: env.S3_BUCKET!,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      prefix: env.S3_PREFIX,
    });
  }
  return localBlobStore(env.DATA_DIR);
}

/**
 * File storage on a sign-in service and a database: its HTTP routes, and the account hooks that delete or
 * move a user's files with the account.
 */
export function createStorage({ env, database, authService }: { env: ServerEnv; database: DatabaseHandle; authService: AuthService }) {
  const blobs = blobStoreFor(env);
  const service = createStorageService({
    db: database.db,
    blobs,
    bucket: env.STORAGE_BUCKET,
    siteUrl: env.SITE_URL,
    limits: {
      maxUploadBytes: env.STORAGE_MAX_UPLOAD_BYTES,
      userQuotaBytes: env.STORAGE_USER_QUOTA_BYTES,
      maxImageSide: env.STORAGE_MAX_IMAGE_SIDE,
    },
  });
  const resolveCaller = createCallerResolver({
    db: database.db,
    jwks: () => authService.auth.api.getJwks(),
    sessionUserId: async (headers) => (await authService.auth.api.getSession({ headers }))?.user.id ?? null,
    siteUrl: env.SITE_URL,
    trustedOrigins: trustedOrigins(env),
  });
  registerUserDataHandler(storageUserDataHandler(blobs, env.SITE_URL));
  serveProfilePhotosFrom(service);
  return { service, blobs, routes: storageRoutes({ service, resolveCaller, siteUrl: env.SITE_URL }) };
}
