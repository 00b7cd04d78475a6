import { readdir } from "node:fs/promises";

/** `/<base>/<slug>` for every Markdown file of a content folder. */
async function markdownPaths(folder: string, base: string): Promise<string[]> {
  const files = await readdir(new URL(`../content/${folder}/`, import.meta.url));
  return files.filter((file) => file.endsWith(".md")).map((file) => `${base}/${file.slice(0, -".md".length)}`);
}

/**
 * Screens whose HTML is the same for every visitor and is made at build time.
 * A screen that reads the session or the database stays server-rendered, and so do the blog and news
 * lists: their `?page=` and `?category=` addresses cannot be files.
 */
export async function prerenderedPaths(): Promise<string[]> {
  return [
    "/",
    "/features",
    "/pricing",
    "/faq",
    "/about",
    "/tutorial",
    "/learning-resources",
    ...(await markdownPaths("learning", "/learning-resources")),
    ...(await markdownPaths("blog", "/blog")),
    ...(await markdownPaths("news", "/news")),
    "/privacy",
    "/terms",
    "/ironman2025",
    "/task-scheduler",
  ];
}
