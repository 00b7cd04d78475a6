import type { PageVariants } from "~/features/shell/signed-in-pages.server";
import { getWishService } from "./wish-context.server";
import { boardHref } from "./wish-paths";
import { parseBoardQuery, type BoardQuery } from "./wish-rules";

/** After a wish is deleted the board is shown with a notice (wish-service.server.ts). */
const afterDeletion = "/wishing-well?deleted=1";

/** The board's own spellings met so far, with their queries: a few dozen in use (orders × statuses × pages read). */
const boardLinks = new Map<string, BoardQuery>();
const boardLinksKept = 1_000;

/**
 * The board's query of an address its own links spell (`boardHref`), or of the one after a deletion; else null. A
 * search (`q`) and any other spelling (`?page=02`, a parameter twice or in another order) are rendered whole: each
 * spelling would be a template of its own.
 */
function boardLinkQuery(pathname: string, search: string): BoardQuery | null {
  if (pathname !== "/wishing-well") return null;
  const known = boardLinks.get(search);
  if (known) return known;
  const parameters = new URLSearchParams(search);
  if (parameters.has("q")) return null;
  const query = parseBoardQuery(parameters);
  const address = pathname + search;
  if (address !== afterDeletion && address !== boardHref(query)) return null;
  if (boardLinks.size < boardLinksKept) boardLinks.set(search, query);
  return query;
}

/**
 * A signed-in parent's board is the visitors' board with their user area and their marks: which of the page's
 * wishes they voted for and made (and, through the user's shape, whether they may vote). The host keeps a template
 * per page, shape and marks, made from the very load of the board the marks were read on (decision 713).
 */
export const wishBoardVariants: PageVariants = {
  takes: (pathname, search) => boardLinkQuery(pathname, search) !== null,
  async variantOf(userId, { pathname, search }, atOnce) {
    const query = boardLinkQuery(pathname, search);
    if (!query) return null;
    const marks = await getWishService().marks(query, userId, atOnce);
    if (!marks) return undefined;
    const key = JSON.stringify({ voted: marks.voted, own: marks.own });
    return { key, version: marks.load, hint: JSON.stringify(marks) };
  },
};
