import type { PageVariants } from "~/features/shell/signed-in-pages.server";
import { getWishService } from "./wish-context.server";
import { parseBoardQuery } from "./wish-rules";

/** The board's addresses the page cache keeps for visitors: a search (`q`) or any other parameter is rendered whole. */
const boardParameters = new Set(["page", "order", "status", "deleted"]);

/**
 * A signed-in parent's board is the visitors' board with their user area and their marks: which of the page's
 * wishes they voted for and made (and, through the user's shape, whether they may vote). The host keeps a template
 * per page, shape and marks (decision 713), made from the board's load the marks were read on.
 */
export const wishBoardVariants: PageVariants = {
  takes: (pathname, parameters) => pathname === "/wishing-well" && [...parameters.keys()].every((name) => boardParameters.has(name)),
  async variantOf(userId, url, atOnce) {
    const marks = await getWishService().marks(parseBoardQuery(url.searchParams), userId, atOnce);
    if (!marks) return undefined;
    const hint = JSON.stringify({ voted: marks.voted, own: marks.own });
    return { key: `${marks.load}|${hint}`, hint };
  },
};
