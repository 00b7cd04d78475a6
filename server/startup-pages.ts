import { promisify } from "node:util";
import zlib from "node:zlib";
import { inlineHashes, type CspHashes } from "~/features/security/csp.server";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The pages that are the same for every visitor (app/prerendered-paths.ts), rendered once at start-up from the
 * running configuration (decision 1030). The build holds no page: every SITE_URL, provider, registered app and
 * analytics id a page shows is the server's own. The files keep the addresses React Router's prerenderer gave them
 * (`/about/index.html`, `/about.data`), so server/static-files.ts answers them as it answers the build's files.
 */
export interface StartupFile {
  urlPath: string;
  content: Buffer;
  /** Brotli (quality 7) and gzip (level 9); none under 512 bytes. */
  br?: Buffer;
  gzip?: Buffer;
}

/** The file address of a page's HTML: `/` → `/index.html`, `/about` → `/about/index.html`. */
export function htmlAddress(path: string): string {
  return path === "/" ? "/index.html" : `${path}/index.html`;
}

/** The address of a page's data for client navigation (v8_trailingSlashAwareDataRequests): `/` → `/_.data`. */
export function dataAddress(path: string): string {
  return path === "/" ? "/_.data" : `${path}.data`;
}

/** A page that cannot be rendered at start stops the start, naming the page. */
export class StartupPageError extends Error {
  override name = "StartupPageError";
}

/**
 * Renders every page and its data through React Router as an anonymous visitor of `siteUrl` would ask for them
 * (no cookie, no nonce: the page's inline scripts are allowed by their hashes instead). One page after the other:
 * rendering is CPU work, and the server does not listen yet.
 */
export async function renderStartupPages(
  handle: (request: Request) => Promise<Response>,
  siteUrl: string,
  paths: readonly string[],
): Promise<StartupFile[]> {
  const files: StartupFile[] = [];
  for (const path of paths) {
    for (const urlPath of [path, dataAddress(path)]) {
      const response = await handle(new Request(new URL(urlPath, siteUrl)));
      const content = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) {
        throw new StartupPageError(`啟動時無法產生頁面 ${urlPath}（HTTP ${response.status}）：${content.toString("utf8").slice(0, 200)}`);
      }
      files.push({ urlPath: urlPath === path ? htmlAddress(path) : urlPath, content });
    }
  }
  return files;
}

/**
 * Brotli quality 7, not the build's 11: every process start pays for these (tests start a hundred), and on the 32
 * pages 11 cost 1.3 s of CPU against 7's 41 ms for 0.4 KB (8 %) less per file (decision 1030).
 */
const startupBrotliQuality = 7;

/** Adds the precompressed twins, compressed side by side on libuv's thread pool. */
export async function compressStartupFiles(files: readonly StartupFile[]): Promise<StartupFile[]> {
  return Promise.all(
    files.map(async (file) => {
      if (file.content.length < 512) return file;
      const [br, gz] = await Promise.all([
        brotli(file.content, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: startupBrotliQuality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: file.content.length },
        }),
        gzip(file.content, { level: 9 }),
      ]);
      return { ...file, br, gzip: gz };
    }),
  );
}

/** Per page address its inline scripts' hashes, and every page's inline styles (the CSP of every page allows those). */
export function startupCspHashes(files: readonly StartupFile[]): CspHashes {
  const pages: Record<string, string[]> = {};
  const styles = new Set<string>();
  for (const file of files) {
    if (!file.urlPath.endsWith("/index.html")) continue;
    const hashes = inlineHashes(file.content.toString("utf8"));
    pages[file.urlPath.slice(0, -"/index.html".length) || "/"] = hashes.scripts;
    for (const style of hashes.styles) styles.add(style);
  }
  return { pages, styles: [...styles] };
}
