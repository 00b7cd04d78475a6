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
    // Links to the project's own pages elsewhere: null when unset, and the link is then left out.
    facebookPageUrl: env.FACEBOOK_PAGE_URL ?? null,
    followUs: followUs(env),
    youtubeUrl: env.YOUTUBE_URL ?? null,
    blogSalonUrl: env.BLOG_SALON_URL ?? null,
    feedbackFormUrl: env.FEEDBACK_FORM_URL ?? null,
    themeColor: env.THEME_COLOR,
    gaMeasurementId: env.GA_MEASUREMENT_ID ?? null,
    /** The bucket name of the file-storage protocol (`/v0/b/<bucket>/o`). */
    storageBucket: env.STORAGE_BUCKET,
  };
}

export type PublicEnv = ReturnType<typeof toPublicEnv>;

/** Where the footer's 追蹤我們 leads: the Facebook group, else the Facebook page, else the site's 最新消息. */
function followUs(env: ServerEnv): { href: string; kind: "community" | "page" | "news" } {
  if (env.FACEBOOK_COMMUNITY_URL) return { href: env.FACEBOOK_COMMUNITY_URL, kind: "community" };
  if (env.FACEBOOK_PAGE_URL) return { href: env.FACEBOOK_PAGE_URL, kind: "page" };
  return { href: "/news", kind: "news" };
}
