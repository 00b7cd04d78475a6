// The prerendered pages and the sitemap's pages, as the route map marks its screens. The server renders the first
// at start-up (server/startup-pages.ts); the route map comes by its relative path.
import { fixedAddress, routeMap, type ScreenRoute } from "./lib/route-map";

// The content folders' Markdown file names, listed when the server is built (so the sitemap and the pages rendered
// at start-up need no files on disk at run time). The texts themselves are bundled once, by the content
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

/** The content pages behind each prerendered route with a parameter: one Markdown file each. */
const contentPages: Record<string, () => string[]> = {
  "learning-resources/*": () => markdownPaths("learning", "/learning-resources"),
  "blog/:id": () => markdownPaths("blog", "/blog"),
  "news/:id": () => markdownPaths("news", "/news"),
};

/** The addresses of a screen: its own, or, for a pattern, its content pages (a pattern without any stops the build). */
export function screenAddresses(entry: ScreenRoute): string[] {
  const fixed = fixedAddress(entry);
  if (fixed !== null) return [fixed];
  const pages = contentPages[entry.path];
  if (!pages) throw new Error(`app/prerendered-paths.ts: no content pages for the prerendered route ${entry.path}`);
  return pages();
}

const screens = routeMap.filter((entry): entry is ScreenRoute => entry.kind === "screen");

/**
 * Screens whose HTML is the same for every visitor, rendered once when the server starts from its own
 * configuration (server/startup-pages.ts), as the route map marks them (app/lib/route-map.ts). A screen that
 * reads the session or the database stays server-rendered. An address with a query string (`/blog?page=2`,
 * `/login?redirectTo=…`) and every method but GET and HEAD go to the server (server/static-files.ts), so the lists'
 * first pages and the sign-in screens can be files while their other pages and their forms' actions are rendered
 * per request.
 */
export async function prerenderedPaths(): Promise<string[]> {
  return screens.filter((entry) => entry.prerendered).flatMap(screenAddresses);
}

/** The sitemap's pages: the listed screens, a pattern's content pages included. */
export function listedPaths(): string[] {
  return screens.filter((entry) => entry.listed).flatMap(screenAddresses);
}
