import { getEnv } from "~/config/env.server";
import type { ContentVariables } from "./placeholders";

/** The configured brand values that content placeholders stand for. */
export function contentVariables(): ContentVariables {
  const env = getEnv();
  return { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, appUrl: env.APP_URL ?? env.SITE_URL, siteUrl: env.SITE_URL };
}
