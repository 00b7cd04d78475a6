import type { PageVariants } from "~/features/shell/signed-in-pages.server";
import { getWishService } from "./wish-context.server";
import { boardHref } from "./wish-paths";
import { parseBoardQuery } from "./wish-rules";

/** After a wish is deleted the board is shown with a notice (wish-service.server.ts). */
const afterDeletion = "/wishing-well?deleted=1";

/**
 * The board's addresses as its own links spell them (`boardHref`), and the one after a deletion. A search (`q`) and
 * any other spelling (`?page=02`, a parameter twice or in another order) are rendered whole: each spelling would be
 * a template of its own.
 */
function isBoardLink(pathname: string, search: string): boolean {
  if (pathname !== "/wishing-well") return false;
  const parameters = new URLSearchParams(search);
  if (parameters.has("q")) return false;
  const address = pathname + search;
  return address === afterDeletion || address === boardHref(parseBoardQuery(parameters));
}

/**
 * A signed-in parent's board is the visitors' board with their user area and their marks: which of the page's
 * wishes they voted for and made (and, through the user's shape, whether they may vote). The host keeps a template
 * per page, shape and marks, made from the very load of the board the marks were read on (decision 713).
 */
export const wishBoardVariants: PageVariants = {
  takes: isBoardLink,
  async variantOf(userId, url, atOnce) {
    const marks = await getWishService().marks(parseBoardQuery(url.searchParams), userId, atOnce);
    if (!marks) return undefined;
    const key = JSON.stringify({ voted: marks.voted, own: marks.own });
    return { key, version: marks.load, hint: JSON.stringify(marks) };
  },
};
