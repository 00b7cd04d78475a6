// The content folders' Markdown file names, read at build time (the same list in the config and in the server
// build, so the sitemap needs no files on disk at run time). The texts themselves are bundled once, by the content
// feature, which globs the same files.
const markdownFiles = Object.keys(
  import.meta.glob(["/content/learning/*.md", "/content/blog/*.md", "/content/news/*.md"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
);

/** `/<base>/<slug>` for every Markdown file of a content folder. */
function markdownPaths(folder: string, base: string): string[] {
  const prefix = `/content/${folder}/`;
  return markdownFiles
    .filter((file) => file.startsWith(prefix))
    .map((file) => `${base}/${file.slice(prefix.length, -".md".length)}`);
}

/** The sign-in screens: the same for every visitor, so prerendered too, but left out of the sitemap. */
export const unlistedPrerenderedPaths = ["/login", "/signup", "/forgot-password", "/email-verification"];

/**
 * Screens whose HTML is the same for every visitor and is made at build time (every build regenerates them
 * from the content and configuration it sees). A screen that reads the session or the database stays
 * server-rendered. An address with a query string (`/blog?page=2`, `/login?redirectTo=…`) and every method but
 * GET and HEAD go to the server (server/static-files.ts), so the lists' first pages and the sign-in screens can be
 * files while their other pages and their forms' actions are rendered per request.
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
    "/blog",
    "/news",
    ...markdownPaths("learning", "/learning-resources"),
    ...markdownPaths("blog", "/blog"),
    ...markdownPaths("news", "/news"),
    "/privacy",
    "/terms",
    "/ironman2025",
    "/task-scheduler",
    ...unlistedPrerenderedPaths,
  ];
}
