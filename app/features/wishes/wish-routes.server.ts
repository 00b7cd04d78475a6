import { data, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import { safeRedirect } from "~/lib/redirect-rule";
import { loadData } from "~/features/pages/data.server";
import type { BoardData } from "./wish-board";
import type { DetailData } from "./wish-detail";
import { getWishService, requestIp, wishViewer } from "./wish-context.server";
import { readFormData } from "~/services/form.server";
import { apiError, formRefusal, guardedEndpoint, guardedForm } from "~/services/request-guard.server";
import { unsubscribe } from "./wish-notice.server";
import { parseBoardQuery } from "./wish-rules";
import type { ActionResult, WishViewer } from "./wish-service.server";

/** Loaders and actions of the wishing-well routes: the routes only hand their request over. */

const isWishId = (id: string | undefined): id is string => z.uuid().safeParse(id).success;

export async function loadBoard(request: Request): Promise<BoardData> {
  const url = new URL(request.url);
  const query = parseBoardQuery(url.searchParams);
  const viewer = await wishViewer(request);
  const board = viewer?.template ? await getWishService().templateBoard(query, viewer.template) : await getWishService().board(query, viewer);
  // Only a host's template asks for a load of the board that may be gone: that page is then rendered whole.
  if (!board) throw data(null, { status: 409 });
  return { content: loadData("wishingWell"), query, ...board, standing: viewer?.standing ?? null, deleted: url.searchParams.has("deleted") };
}

export async function loadWish(request: Request, id: string | undefined) {
  const viewer = await wishViewer(request);
  const detail = isWishId(id) ? await getWishService().detail(id, viewer) : null;
  if (!detail) return data({ wish: null }, { status: 404 });
  const wish: DetailData = { ...detail, standing: viewer?.standing ?? null, editor: Boolean(viewer?.editor), url: `${getEnv().SITE_URL}/wishing-well/${detail.wish.id}` };
  return data({ wish }, { headers: { "Cache-Control": "private, no-cache" } });
}

/**
 * A form post to the board (make a wish) or to a wish's page (vote, edit, delete, team actions), under the request
 * guard. Success redirects (303) so a reload never posts twice; a refusal re-renders the page with the form kit's
 * result (the message, the fields' errors, the typed values) and its status.
 */
export function wishAction(request: Request, wishId?: string) {
  return guardedForm(request, async () => {
    const form = await readFormData(request);
    const result: ActionResult = await getWishService().act(form, await wishViewer(request), requestIp(request), wishId);
    if (!result.ok) return formRefusal(result.status, result.code, result.message, { intent: result.intent, fieldErrors: result.fieldErrors, values: result.values });
    if (result.redirect) return redirect(result.redirect, 303);
    const back = form.get("back");
    return redirect(safeRedirect(typeof back === "string" ? back : null, getEnv().SITE_URL, wishId ? `/wishing-well/${wishId}` : "/wishing-well"), 303);
  });
}

const jsonHeaders = { "Cache-Control": "no-store" };

/** POST /api/wishes/:id/vote `{ vote: boolean }` → `{ voted, voteCount }`, or `{ error: { code, message } }` (the request guard's shape). */
export function voteApi(request: Request, wishId: string | undefined): Promise<Response> {
  return guardedEndpoint({ methods: ["POST"], viewer: wishViewer }, (request, viewer) => castVote(request, wishId, viewer))(request);
}

async function castVote(request: Request, wishId: string | undefined, viewer: WishViewer | null): Promise<Response> {
  if (!isWishId(wishId)) return apiError(404, "wishes/not-found", "找不到這個願望。");
  const body = z.object({ vote: z.boolean() }).safeParse(await request.json().catch(() => null));
  if (!body.success) return apiError(400, "wishes/invalid", "投票資料不正確。");
  const form = new FormData();
  form.set("intent", "vote");
  form.set("vote", body.data.vote ? "add" : "remove");
  const result = await getWishService().act(form, viewer, requestIp(request), wishId);
  if (!result.ok) return apiError(result.status, result.code, result.message);
  return Response.json(result.vote, { headers: jsonHeaders });
}

/** GET /api/wishes/similar?title= → `{ wishes }`: up to five visible wishes like the title being typed. */
export async function similarApi(request: Request): Promise<Response> {
  const title = (new URL(request.url).searchParams.get("title") ?? "").slice(0, 120);
  return Response.json({ wishes: await getWishService().similar(title) }, { headers: jsonHeaders });
}

/** The unsubscribe link of a notice: GET shows a button; POST (the button, or a mail client's one-click) unsubscribes. */
export function loadUnsubscribe(request: Request) {
  return { token: new URL(request.url).searchParams.get("token") ?? "", done: null as boolean | null };
}

export async function unsubscribeAction(request: Request) {
  const url = new URL(request.url);
  const form = await readFormData(request).catch(() => new FormData());
  const token = String(form.get("token") ?? url.searchParams.get("token") ?? "");
  const done = await unsubscribe(getDatabase().db, token);
  return data({ token, done }, { status: done ? 200 : 404 });
}
