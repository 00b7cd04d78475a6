import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import { fillData } from "~/features/pages/placeholders";
import { contentVariables } from "~/features/pages/variables.server";
import { devBlog } from "~content/dev-blog";
import { createPostStore, type PostStore } from "./posts.server";

let store: PostStore | undefined;

/** The process-wide post store on the configured database. */
export function postStore(): PostStore {
  store ??= createPostStore({ db: getDatabase().db, siteUrl: getEnv().SITE_URL });
  return store;
}

/** The dev blog's screen texts (content/dev-blog.ts) with the brand placeholders filled in. */
export function devBlogTexts() {
  return fillData(devBlog, contentVariables(), "content/dev-blog.ts");
}
