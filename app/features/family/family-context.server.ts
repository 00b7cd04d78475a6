import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import type { FamilyBrand } from "./family-notices.server";

/** The configured database and the brand the family's mails are signed with. */
export function familyContext(): { db: ReturnType<typeof getDatabase>["db"]; brand: FamilyBrand } {
  const env = getEnv();
  return { db: getDatabase().db, brand: { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, siteUrl: env.SITE_URL } };
}
