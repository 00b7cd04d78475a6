import type { ServerEnv } from "./env.server";

/**
 * The browser-safe part of the configuration. Only what is listed here is ever sent to the browser
 * (through the root loader); secrets stay in env.server.ts.
 */
export function toPublicEnv(env: ServerEnv) {
  return {
    productName: env.PRODUCT_NAME,
    siteUrl: env.SITE_URL,
    /** The app's address, or null when none is configured (no link leads to the app then). */
    appUrl: env.APP_URL ?? null,
    allowedHostnames: env.allowedHostnames,
    supportEmail: env.SUPPORT_EMAIL,
    facebookPageUrl: env.FACEBOOK_PAGE_URL,
    facebookCommunityUrl: env.FACEBOOK_COMMUNITY_URL,
    youtubeUrl: env.YOUTUBE_URL,
    blogSalonUrl: env.BLOG_SALON_URL,
    feedbackFormUrl: env.FEEDBACK_FORM_URL,
    themeColor: env.THEME_COLOR,
    gaMeasurementId: env.GA_MEASUREMENT_ID ?? null,
    /** The bucket name of the file-storage protocol (`/v0/b/<bucket>/o`). */
    storageBucket: env.STORAGE_BUCKET,
  };
}

export type PublicEnv = ReturnType<typeof toPublicEnv>;
