import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { sessionIsActive, type AuthService, registerUserDataHandler } from "~/features/auth/index.server";
import { requestClientIp } from "~/services/client-ip.server";
import { getLogger } from "~/services/logger.server";
import { fixedWindowLimiter } from "~/services/rate-limiter.server";
import { originRule } from "~/services/request-guard.server";
import { localBlobStore, type BlobStore } from "./blob-store.server";
import { createCallerResolver } from "./caller.server";
import { createDiskGuard } from "./disk-guard.server";
import { s3BlobStore } from "./s3-blob-store.server";
import { storageRoutes } from "./storage-routes.server";
import { uploadSessionLifetimeMs } from "./resumable-uploads.server";
import { createStorageService } from "./storage-service.server";
import { createStorageSweeper } from "./storage-sweeper.server";
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

const diskCheckIntervalMs = 10_000;

/**
 * File storage on a sign-in service and a database: its HTTP routes, the account hooks that delete or move a
 * user's files with the account, the sweeper that removes bytes nothing points at, and the guard of DATA_DIR's
 * disk (both started here; `stop` ends them).
 */
export function createStorage({
  env,
  database,
  authService,
  appTokenUser = async () => null,
}: {
  env: ServerEnv;
  database: DatabaseHandle;
  authService: AuthService;
  /** The user of an app's access token from the site's OpenID provider (app/features/app-sign-in). */
  appTokenUser?: (token: string) => Promise<{ uid: string; editor: boolean } | null>;
}) {
  const blobs = blobStoreFor(env);
  const logger = getLogger();
  const service = createStorageService({
    db: database.db,
    blobs,
    bucket: env.STORAGE_BUCKET,
    siteUrl: env.SITE_URL,
    logger,
    limits: {
      maxUploadBytes: env.STORAGE_MAX_UPLOAD_BYTES,
      userQuotaBytes: env.STORAGE_USER_QUOTA_BYTES,
      maxImageSide: env.STORAGE_MAX_IMAGE_SIDE,
      maxOpenUploads: env.STORAGE_MAX_OPEN_UPLOADS,
      minFreeBytes: env.STORAGE_MIN_FREE_BYTES,
    },
  });
  const sweeper = createStorageSweeper({
    db: database.db,
    blobs,
    logger,
    uploadLifetimeMs: uploadSessionLifetimeMs,
    orphanGraceMs: env.STORAGE_ORPHAN_GRACE_SECONDS * 1000,
  });
  const stopSweeping = sweeper.start(env.STORAGE_SWEEP_INTERVAL_SECONDS * 1000);
  const disk = createDiskGuard({
    directory: env.DATA_DIR,
    lowBytes: env.STORAGE_MIN_FREE_BYTES + env.STORAGE_MAX_UPLOAD_BYTES,
    reserveBytes: env.STORAGE_DISK_RESERVE_BYTES,
    logger,
  });
  const stopWatching = disk.start(diskCheckIntervalMs);
  const resolveCaller = createCallerResolver({
    db: database.db,
    jwks: () => authService.auth.api.getJwks(),
    sessionUserId: async (headers) => (await authService.readSession(headers))?.user.id ?? null,
    sessionActive: (sessionId) => sessionIsActive(database, sessionId),
    appTokenUser,
    siteUrl: env.SITE_URL,
    isTrustedOrigin: originRule(env).isTrusted,
  });
  registerUserDataHandler(storageUserDataHandler(env.SITE_URL, sweeper));
  serveProfilePhotosFrom(service);
  const store = authService.rateLimitStore;
  const routes = storageRoutes({
    service,
    // Before a deletion: on a full disk the reserve goes first, so the deletion has room.
    beforeDelete: async () => void (await disk.check()),
    resolveCaller,
    clientIp: (c) => requestClientIp(c, env.TRUSTED_PROXIES),
    writeLimits: {
      perAddress: fixedWindowLimiter(store, env.RATE_LIMIT_STORAGE_WRITES_PER_IP, "storage-ip:"),
      perAccount: fixedWindowLimiter(store, env.RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT, "storage-account:"),
    },
    siteUrl: env.SITE_URL,
  });
  return {
    service,
    blobs,
    sweeper,
    disk,
    routes,
    stop: () => {
      stopSweeping();
      stopWatching();
    },
  };
}

/** The operator's copy of a Firebase Storage bucket into this storage (`npm run import:firebase-storage`). */
export { importFirebaseStorage, storageSummaryText, StorageImportRefused, type StorageImportOptions } from "./firebase-storage-import.server";
