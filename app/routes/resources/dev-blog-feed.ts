import { getEnv } from "~/config/env.server";
import { devBlogTexts, postStore } from "~/features/dev-blog/blog-service.server";
import { devBlogFeed } from "~/features/dev-blog/feed.server";

export async function loader() {
  const env = getEnv();
  const { list } = devBlogTexts();
  const xml = await devBlogFeed(postStore(), { siteUrl: env.SITE_URL, productName: env.PRODUCT_NAME, title: list.title, description: list.description });
  return new Response(xml, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
