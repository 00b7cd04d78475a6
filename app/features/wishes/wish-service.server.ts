import type { CompiledQuery, Kysely } from "kysely";
import type { z } from "zod";
import type { Database } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { onPublicContentChanged } from "~/services/public-content.server";
import type { RateLimitStore } from "~/services/rate-limiter.server";
import { overRateLimit } from "./wish-limits.server";
import { statusNotice, type NoticeBrand } from "./wish-notice.server";
import { canEdit, mergeInput, replyInput, statusInput, wishInput, type BoardQuery } from "./wish-rules";
import {
  createWish,
  deleteWish,
  editWish,
  findSimilarWishes,
  findWish,
  loadBoardPage,
  mergeWish,
  publicWish,
  setHidden,
  setStatus,
  setTeamReply,
  setVote,
  votedWishIds,
  votedWishIdsQuery,
  type BoardPage,
  type Wish,
} from "./wishes.server";

/** Which of a page's wishes a viewer voted for, and which they made. */
export interface ViewerMarks {
  voted: string[];
  own: string[];
}

/** Who is asking: a signed-in user (guests included) and whether they are on the team. */
export interface WishViewer {
  id: string;
  editor: boolean;
}

/** What the host's template of a signed-in parent's board shows (decision 713): marks, and the board's load they were read on. */
export type TemplateMarks = ViewerMarks & { load: number };

/** One load of a page of the board, counted, and what it loaded once it has. */
interface BoardLoad {
  expires: number;
  page: Promise<BoardPage>;
  load: number;
  loaded?: BoardPage;
}

export type ActionResult =
  | { ok: true; intent: string; redirect?: string; vote?: { voted: boolean; voteCount: number } }
  | { ok: false; intent: string; status: number; code: string; message: string; fieldErrors?: Record<string, string>; values?: Record<string, string> };

export interface WishDetail {
  wish: Wish;
  /** The permalink of a duplicate names the wish it was merged into. */
  mergedInto: Wish | null;
  hidden: boolean;
  voted: boolean;
  own: boolean;
  editable: boolean;
}

export interface WishServiceDeps {
  db: Kysely<Database>;
  /** Reads that never wait (`straightReader`): a signed-in parent's board answered in front of the chain (decision 713). */
  readStraight?: <Row>(query: CompiledQuery) => Row[] | undefined;
  rateLimitStore: RateLimitStore;
  brand: NoticeBrand;
  /** How long another instance's writes may take to show on this one's board (this instance's show at once). */
  cacheSeconds?: number;
}

const intents = ["create", "edit", "delete", "vote", "status", "reply", "merge", "hide", "unhide"] as const;
type Intent = (typeof intents)[number];
const teamIntents: ReadonlySet<Intent> = new Set(["status", "reply", "merge", "hide", "unhide"]);

const fail = (intent: string, status: number, code: string, message: string, extra: Partial<Extract<ActionResult, { ok: false }>> = {}): ActionResult => ({
  ok: false,
  intent,
  status,
  code,
  message,
  ...extra,
});

function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

const form = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * The wishing well's server side for the routes: reads (with a small cache of the public board) and every
 * form action, with permissions, limits and notices. Routes stay thin and call this.
 */
export function createWishService({ db, readStraight = () => undefined, rateLimitStore, brand, cacheSeconds = 5 }: WishServiceDeps) {
  const boardCache = new Map<string, BoardLoad>();
  const invalidate = () => boardCache.clear();
  // A write elsewhere (another worker or instance, an account deletion) clears it too: the page cache would
  // otherwise store a render of the old board.
  onPublicContentChanged(invalidate);
  let loads = 0;

  const boardKey = (query: BoardQuery) => `${query.order}|${query.status ?? ""}|${query.page}|${query.q}`;

  /** A page of the board as everybody sees it, and which load of it this is (each load is counted). */
  function board(query: BoardQuery): BoardLoad {
    const key = boardKey(query);
    const now = Date.now();
    const cached = boardCache.get(key);
    if (cached && cached.expires > now) return cached;
    const page = loadBoardPage(db, query);
    if (boardCache.size > 500) boardCache.clear();
    const entry: BoardLoad = { expires: now + cacheSeconds * 1000, page, load: (loads += 1) };
    page.then(
      (loaded) => (entry.loaded = loaded),
      () => boardCache.delete(key),
    );
    boardCache.set(key, entry);
    return entry;
  }

  const ownOn = (wishes: BoardPage["wishes"], userId: string) => wishes.filter((wish) => wish.authorId === userId).map((wish) => wish.id);
  async function marksOn(wishes: BoardPage["wishes"], userId: string): Promise<ViewerMarks> {
    return { voted: await votedWishIds(db, userId, wishes.map((wish) => wish.id)), own: ownOn(wishes, userId) };
  }

  /** The same without waiting: undefined unless the board's page is loaded and the votes can be read at once. */
  function marksAtOnce(query: BoardQuery, userId: string): TemplateMarks | undefined {
    const entry = boardCache.get(boardKey(query));
    if (!entry?.loaded || entry.expires <= Date.now()) return undefined;
    const { wishes } = entry.loaded;
    if (!wishes.length) return { load: entry.load, voted: [], own: [] };
    const votes = readStraight<{ wish_id: string }>(votedWishIdsQuery(db, userId, wishes.map((wish) => wish.id)).compile());
    return votes && { load: entry.load, voted: votes.map((vote) => vote.wish_id), own: ownOn(wishes, userId) };
  }

  async function act(data: FormData, viewer: WishViewer | null, ip: string, wishId?: string): Promise<ActionResult> {
    const intent = form(data, "intent") as Intent | undefined;
    if (!intent || !intents.includes(intent)) return fail("unknown", 400, "wishes/unknown-action", "無法辨識的操作，請重新整理頁面後再試。");
    if (!viewer) return fail(intent, 401, "wishes/sign-in-required", "請先登入（也可以用訪客身分試用）再許願或投票。");
    if (teamIntents.has(intent) && !viewer.editor) return fail(intent, 403, "wishes/editors-only", "只有團隊編輯可以做這件事。");
    if (intent !== "create" && !wishId) return fail(intent, 400, "wishes/not-found", "找不到這個願望。");
    const id = wishId ?? "";
    const notFound = () => fail(intent, 404, "wishes/not-found", "找不到這個願望，它可能已經被刪除。");

    switch (intent) {
      case "create": {
        const input = wishInput.safeParse({ title: form(data, "title") ?? "", body: form(data, "body") ?? "" });
        const values = { title: form(data, "title") ?? "", body: form(data, "body") ?? "" };
        if (!input.success) return fail(intent, 400, "wishes/invalid", "請修正標示的欄位。", { fieldErrors: fieldErrors(input.error), values });
        const limited = await overRateLimit(rateLimitStore, "wish", viewer.id, ip);
        if (limited) return fail(intent, 429, "wishes/too-many-requests", limited, { values });
        const created = await createWish(db, viewer.id, input.data);
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${created}` };
      }
      case "edit": {
        const values = { title: form(data, "title") ?? "", body: form(data, "body") ?? "" };
        const input = wishInput.safeParse(values);
        if (!input.success) return fail(intent, 400, "wishes/invalid", "請修正標示的欄位。", { fieldErrors: fieldErrors(input.error), values });
        const result = await editWish(db, id, viewer.id, input.data);
        if (result === "not-found") return notFound();
        if (result === "forbidden") return fail(intent, 403, "wishes/not-author", "只有許願的人可以修改這個願望。");
        if (result === "too-late") return fail(intent, 409, "wishes/edit-window-closed", "許願超過 15 分鐘就不能再修改了（已經有人依內容投票）。你可以刪除後重新許願。", { values });
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${id}` };
      }
      case "delete": {
        const result = await deleteWish(db, id, viewer.id);
        if (result === "not-found") return notFound();
        if (result === "forbidden") return fail(intent, 403, "wishes/not-author", "只有許願的人可以刪除這個願望。");
        invalidate();
        return { ok: true, intent, redirect: "/wishing-well?deleted=1" };
      }
      case "vote": {
        const limited = await overRateLimit(rateLimitStore, "vote", viewer.id, ip);
        if (limited) return fail(intent, 429, "wishes/too-many-requests", limited);
        const result = await setVote(db, id, viewer.id, form(data, "vote") !== "remove");
        if (result === "not-found") return notFound();
        if (result === "own-wish") return fail(intent, 409, "wishes/own-wish", "不能替自己的願望投票。");
        if (result === "needs-account") return fail(intent, 403, "wishes/vote-needs-account", "投票需要正式帳號並完成電子郵件驗證：訪客請先升級成正式帳號，再到信箱點驗證連結。");
        invalidate();
        return { ok: true, intent, vote: result };
      }
      case "status": {
        const input = statusInput.safeParse({ status: form(data, "status"), reason: form(data, "reason") ?? "" });
        if (!input.success) return fail(intent, 400, "wishes/invalid", "請修正標示的欄位。", { fieldErrors: fieldErrors(input.error) });
        // The notice is written to the mail outbox in the status change's own transaction: both or neither.
        const result = await setStatus(db, id, input.data.status, input.data.reason, async (trx, change) => {
          const notice = await statusNotice(trx, change, brand);
          if (notice) await enqueueMail(trx, notice);
        });
        if (result === "not-found") return notFound();
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${id}` };
      }
      case "reply": {
        const input = replyInput.safeParse({ reply: form(data, "reply") ?? "" });
        if (!input.success) return fail(intent, 400, "wishes/invalid", "請修正標示的欄位。", { fieldErrors: fieldErrors(input.error) });
        if ((await setTeamReply(db, id, input.data.reply)) === "not-found") return notFound();
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${id}` };
      }
      case "merge": {
        const input = mergeInput.safeParse({ target: form(data, "target") });
        if (!input.success) return fail(intent, 400, "wishes/invalid", "請修正標示的欄位。", { fieldErrors: fieldErrors(input.error) });
        const result = await mergeWish(db, id, input.data.target);
        const problems: Record<Exclude<typeof result, "ok">, string> = {
          "not-found": "找不到要合併的願望。",
          "same-wish": "不能把願望合併到自己。",
          "target-merged": "目標願望已經合併到別的願望，請改填那一個。",
          "already-merged": "這個願望已經合併過了。",
        };
        if (result !== "ok") return fail(intent, 409, `wishes/merge-${result}`, problems[result], { fieldErrors: { target: problems[result] } });
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${input.data.target}` };
      }
      case "hide":
      case "unhide": {
        if ((await setHidden(db, id, intent === "hide")) === "not-found") return notFound();
        invalidate();
        return { ok: true, intent, redirect: `/wishing-well/${id}` };
      }
    }
  }

  return {
    /** A page of the board, and which of its wishes the viewer has voted for and made. */
    async board(query: BoardQuery, viewer: WishViewer | null) {
      const { wishes, total, counts } = await board(query).page;
      const marks = viewer ? await marksOn(wishes, viewer.id) : { voted: [], own: [] };
      return { wishes: wishes.map(publicWish), total, counts, ...marks };
    },

    /** The same for a template: the load its marks were read on, with them; null once that load is gone (they may not fit another). */
    async templateBoard(query: BoardQuery, { load, voted, own }: TemplateMarks) {
      const current = board(query);
      if (current.load !== load) return null;
      const { wishes, total, counts } = await current.page;
      return { wishes: wishes.map(publicWish), total, counts, voted, own };
    },

    /**
     * A user's marks on a page of the board, and which load of the board they are on (a template shows that load).
     * `atOnce`: undefined where reading them would wait (a board not loaded, a transaction holding SQLite).
     */
    async marks(query: BoardQuery, userId: string, atOnce = false): Promise<TemplateMarks | undefined> {
      if (atOnce) return marksAtOnce(query, userId);
      const { page, load } = board(query);
      return { load, ...(await marksOn((await page).wishes, userId)) };
    },

    /** One wish for its permalink; hidden wishes only for the team. */
    async detail(id: string, viewer: WishViewer | null): Promise<WishDetail | null> {
      const record = await findWish(db, id);
      if (!record || (record.hiddenAt && !viewer?.editor)) return null;
      const [target, voted] = await Promise.all([
        record.mergedInto ? findWish(db, record.mergedInto) : undefined,
        viewer ? votedWishIds(db, viewer.id, [id]) : [],
      ]);
      const own = viewer?.id === record.authorId;
      return {
        wish: publicWish(record),
        mergedInto: target && !target.hiddenAt ? publicWish(target) : null,
        hidden: Boolean(record.hiddenAt),
        voted: voted.length > 0,
        own,
        editable: own && !record.mergedInto && canEdit(record.createdAt),
      };
    },

    similar: (title: string) => findSimilarWishes(db, title),
    act,
  };
}

export type WishService = ReturnType<typeof createWishService>;
