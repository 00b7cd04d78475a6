import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { canEdit, searchTerms, voterStanding, wishLimits, type BoardQuery, type Wish, type WishInput, type WishStatus } from "./wish-rules";

export type { Wish };

/**
 * The wishing well's data: every read and write of wishes and votes. Reads are a fixed number of queries
 * whatever the page holds (no query per wish); every write that changes votes keeps `vote_count` in step in
 * the same transaction.
 */
export type Db = Kysely<Database> | Transaction<Database>;


/** A wish with what only the server, its author and the team need. */
export interface WishRecord extends Wish {
  authorId: string;
  mergedInto: string | null;
  hiddenAt: string | null;
}

export interface BoardPage {
  wishes: WishRecord[];
  total: number;
  /** Visible wishes per status (`all`: every visible wish), for the filter. */
  counts: Record<WishStatus | "all", number>;
}

const visible = { hidden: "hidden_at", merged: "merged_into" } as const;

const wishColumns = [
  "id",
  "title",
  "body",
  "status",
  "status_reason",
  "team_reply",
  "vote_count",
  "created_at",
  "author_id",
  "merged_into",
  "hidden_at",
] as const;

type WishRow = Pick<Database["wishes"], "id" | "title" | "body" | "status" | "status_reason" | "team_reply" | "created_at" | "author_id" | "merged_into" | "hidden_at"> & {
  vote_count: number | string;
};

function toRecord(row: WishRow): WishRecord {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    status: row.status as WishStatus,
    statusReason: row.status_reason,
    teamReply: row.team_reply,
    voteCount: Number(row.vote_count),
    createdAt: row.created_at,
    authorId: row.author_id,
    mergedInto: row.merged_into,
    hiddenAt: row.hidden_at,
  };
}

/** The public face of a record (what anyone may read). */
export function publicWish({ id, title, body, status, statusReason, teamReply, voteCount, createdAt }: WishRecord): Wish {
  return { id, title, body, status, statusReason, teamReply, voteCount, createdAt };
}

function visibleWishes(db: Db) {
  return db.selectFrom("wishes").where(visible.hidden, "is", null).where(visible.merged, "is", null);
}

/** `LIKE` text that matches `term` literally anywhere (its own % and _ escaped). */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** Whether a wish's title or text holds `piece` (1 or 0, to be added up). */
const holds = (piece: string) =>
  sql<number>`case when lower(title) like ${containing(piece)} escape '\\' or lower(body) like ${containing(piece)} escape '\\' then 1 else 0 end`;

/**
 * The visible wishes, narrowed to those whose title or text holds every search word (see searchTerms). A word is
 * found as written, or, when it is longer (「深色列印」 typed without a space), when two thirds of its two-character
 * pieces are there: Chinese runs words together, so 「深色」 in the text and 「列印」 in the title find it too.
 */
function searchedWishes(db: Db, q: string) {
  const terms = searchTerms(q);
  if (!terms.length) return visibleWishes(db);
  return visibleWishes(db).where((eb) =>
    eb.and(
      terms.map((term) => {
        const pieces = titlePieces(term);
        const whole = sql<boolean>`${holds(term)} = 1`;
        if (pieces.length < 3) return whole;
        return eb.or([whole, sql<boolean>`(${sql.join(pieces.map(holds), sql` + `)}) >= ${Math.ceil((pieces.length * 2) / 3)}`]);
      }),
    ),
  );
}

/** One page of the board: one query for the rows and the total (a window count), one grouped count per status. */
export async function loadBoardPage(db: Db, query: BoardQuery): Promise<BoardPage> {
  let rows = searchedWishes(db, query.q)
    .select(wishColumns)
    .select(sql<number | string>`count(*) over ()`.as("total"));
  if (query.status) rows = rows.where("status", "=", query.status);
  rows = query.order === "votes" ? rows.orderBy("vote_count", "desc").orderBy("created_at", "desc") : rows.orderBy("created_at", "desc");
  const [found, grouped] = await Promise.all([
    rows
      .orderBy("id")
      .limit(wishLimits.pageSize)
      .offset((query.page - 1) * wishLimits.pageSize)
      .execute(),
    searchedWishes(db, query.q).select(["status", (eb) => eb.fn.countAll<number | string>().as("count")]).groupBy("status").execute(),
  ]);
  const counts = { all: 0, open: 0, received: 0, planned: 0, done: 0, declined: 0 };
  for (const row of grouped) {
    counts[row.status as WishStatus] = Number(row.count);
    counts.all += Number(row.count);
  }
  const total = found.length ? Number(found[0]!.total) : query.status ? counts[query.status] : counts.all;
  return { wishes: found.map(toRecord), total, counts };
}

/** Which of `wishIds` the user has voted for: one query for a whole page. */
/** Which of `wishIds` a user voted for (`wishIds` not empty). */
export const votedWishIdsQuery = (db: Db, userId: string, wishIds: string[]) =>
  db.selectFrom("wish_votes").select("wish_id").where("user_id", "=", userId).where("wish_id", "in", wishIds);

export async function votedWishIds(db: Db, userId: string, wishIds: string[]): Promise<string[]> {
  if (!wishIds.length) return [];
  const rows = await votedWishIdsQuery(db, userId, wishIds).execute();
  return rows.map((row) => row.wish_id);
}

export async function findWish(db: Db, id: string): Promise<WishRecord | undefined> {
  const row = await db.selectFrom("wishes").select(wishColumns).where("id", "=", id).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export async function createWish(db: Db, authorId: string, input: WishInput, now = new Date()): Promise<string> {
  const id = randomUUID();
  const time = now.toISOString();
  await db
    .insertInto("wishes")
    .values({ id, author_id: authorId, title: input.title, body: input.body, status: "open", created_at: time, updated_at: time })
    .execute();
  return id;
}

export type OwnWishResult = "ok" | "not-found" | "forbidden" | "too-late";

/** The author corrects their wish within the edit window. */
export async function editWish(db: Db, id: string, userId: string, input: WishInput, now = new Date()): Promise<OwnWishResult> {
  const wish = await findWish(db, id);
  if (!wish || wish.hiddenAt || wish.mergedInto) return "not-found";
  if (wish.authorId !== userId) return "forbidden";
  if (!canEdit(wish.createdAt, now.getTime())) return "too-late";
  await db.updateTable("wishes").set({ title: input.title, body: input.body, updated_at: now.toISOString() }).where("id", "=", id).execute();
  return "ok";
}

/** The author deletes their wish; its votes go with it, wishes merged into it return to the board. */
export async function deleteWish(db: Kysely<Database>, id: string, userId: string): Promise<OwnWishResult> {
  const wish = await findWish(db, id);
  if (!wish) return "not-found";
  if (wish.authorId !== userId) return "forbidden";
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("wishes").set({ merged_into: null }).where("merged_into", "=", id).execute();
    await trx.deleteFrom("wishes").where("id", "=", id).execute();
  });
  return "ok";
}

export type VoteResult = { voted: boolean; voteCount: number } | "not-found" | "own-wish" | "needs-account";

/** Whether the user may cast a vote: a verified account, not a guest (voterStanding). */
async function mayVote(db: Db, userId: string): Promise<boolean> {
  const user = await db.selectFrom("user").select(["isAnonymous", "emailVerified"]).where("id", "=", userId).executeTakeFirst();
  return user !== undefined && voterStanding(user) === "verified";
}

/**
 * Sets the user's vote on a wish to `wanted` (idempotent, so a repeated form post changes nothing). Only a
 * verified account adds a vote; anyone may take theirs back.
 */
export async function setVote(db: Kysely<Database>, wishId: string, userId: string, wanted: boolean, now = new Date()): Promise<VoteResult> {
  return db.transaction().execute(async (trx) => {
    const wish = await findWish(trx, wishId);
    if (!wish || wish.hiddenAt || wish.mergedInto) return "not-found";
    if (wish.authorId === userId) return "own-wish";
    let change = 0;
    if (wanted) {
      if (!(await mayVote(trx, userId))) return "needs-account";
      const inserted = await trx
        .insertInto("wish_votes")
        .values({ wish_id: wishId, user_id: userId, created_at: now.toISOString() })
        .onConflict((conflict) => conflict.columns(["wish_id", "user_id"]).doNothing())
        .executeTakeFirst();
      change = Number(inserted.numInsertedOrUpdatedRows ?? 0);
    } else {
      const deleted = await trx.deleteFrom("wish_votes").where("wish_id", "=", wishId).where("user_id", "=", userId).executeTakeFirst();
      change = -Number(deleted.numDeletedRows);
    }
    if (change) {
      await trx
        .updateTable("wishes")
        .set((eb) => ({ vote_count: eb("vote_count", "+", change) }))
        .where("id", "=", wishId)
        .execute();
    }
    return { voted: wanted, voteCount: wish.voteCount + change };
  });
}

export interface StatusChange {
  wish: WishRecord;
  previous: WishStatus;
}

/**
 * The team sets a status (with a reason for 暫不考慮). `onChanged` runs inside the same transaction when the
 * status really changed, so a notice queued there is written together with the change or not at all.
 */
export async function setStatus(
  db: Kysely<Database>,
  id: string,
  status: WishStatus,
  reason: string,
  onChanged: (trx: Transaction<Database>, change: StatusChange) => Promise<void>,
  now = new Date(),
): Promise<"ok" | "unchanged" | "not-found"> {
  return db.transaction().execute(async (trx) => {
    const wish = await findWish(trx, id);
    if (!wish || wish.mergedInto) return "not-found";
    const statusReason = status === "declined" ? reason : null;
    if (wish.status === status && wish.statusReason === statusReason) return "unchanged";
    await trx.updateTable("wishes").set({ status, status_reason: statusReason, updated_at: now.toISOString() }).where("id", "=", id).execute();
    if (wish.status !== status) await onChanged(trx, { wish: { ...wish, status, statusReason }, previous: wish.status });
    return "ok";
  });
}

export async function setTeamReply(db: Db, id: string, reply: string, now = new Date()): Promise<"ok" | "not-found"> {
  const result = await db
    .updateTable("wishes")
    .set({ team_reply: reply || null, updated_at: now.toISOString() })
    .where("id", "=", id)
    .where("merged_into", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) ? "ok" : "not-found";
}

export async function setHidden(db: Db, id: string, hidden: boolean, now = new Date()): Promise<"ok" | "not-found"> {
  const result = await db
    .updateTable("wishes")
    .set({ hidden_at: hidden ? now.toISOString() : null })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) ? "ok" : "not-found";
}

/** Recounts `vote_count` from the votes themselves, for wishes whose votes moved in bulk. */
async function recountVotes(trx: Db, wishIds: string[]) {
  if (!wishIds.length) return;
  await trx
    .updateTable("wishes")
    .set((eb) => ({
      vote_count: eb.selectFrom("wish_votes").select((inner) => inner.fn.countAll<number>().as("n")).whereRef("wish_votes.wish_id", "=", "wishes.id"),
    }))
    .where("id", "in", wishIds)
    .execute();
}

export type MergeResult = "ok" | "not-found" | "same-wish" | "target-merged" | "already-merged";

/**
 * Merges a duplicate into another wish: every voter of the duplicate, and its author when the author may vote,
 * now votes for the target, once (the primary key keeps one vote per user; the target's author gets none on
 * their own wish).
 * The duplicate leaves the board and its permalink points to the target.
 */
export async function mergeWish(db: Kysely<Database>, sourceId: string, targetId: string, now = new Date()): Promise<MergeResult> {
  if (sourceId === targetId) return "same-wish";
  return db.transaction().execute(async (trx) => {
    const [source, target] = await Promise.all([findWish(trx, sourceId), findWish(trx, targetId)]);
    if (!source || !target) return "not-found";
    if (source.mergedInto) return "already-merged";
    if (target.mergedInto) return "target-merged";
    const time = now.toISOString();
    await trx
      .insertInto("wish_votes")
      .columns(["wish_id", "user_id", "created_at"])
      .expression(
        trx
          .selectFrom("wish_votes")
          .select([sql.lit(targetId).as("wish_id"), "user_id", "created_at"])
          .where("wish_id", "=", sourceId)
          .where("user_id", "!=", target.authorId),
      )
      .onConflict((conflict) => conflict.columns(["wish_id", "user_id"]).doNothing())
      .execute();
    if (source.authorId !== target.authorId && (await mayVote(trx, source.authorId))) {
      await trx
        .insertInto("wish_votes")
        .values({ wish_id: targetId, user_id: source.authorId, created_at: time })
        .onConflict((conflict) => conflict.columns(["wish_id", "user_id"]).doNothing())
        .execute();
    }
    await trx.deleteFrom("wish_votes").where("wish_id", "=", sourceId).execute();
    await trx.updateTable("wishes").set({ merged_into: targetId }).where("merged_into", "=", sourceId).execute();
    await trx.updateTable("wishes").set({ merged_into: targetId, vote_count: 0, updated_at: time }).where("id", "=", sourceId).execute();
    await recountVotes(trx, [targetId]);
    return "ok";
  });
}

/** Up to five visible wishes whose titles share the most two-character pieces with `title` (one query). */
export async function findSimilarWishes(db: Db, title: string, limit = 5): Promise<Wish[]> {
  const pieces = titlePieces(title);
  if (!pieces.length) return [];
  const rows = await visibleWishes(db)
    .select(wishColumns)
    .where((eb) => eb.or(pieces.map((piece) => eb(eb.fn("lower", ["title"]), "like", `%${piece}%`))))
    .orderBy("vote_count", "desc")
    .limit(50)
    .execute();
  return rows
    .map((row) => ({ row, score: pieces.filter((piece) => row.title.toLowerCase().includes(piece)).length }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ row }) => publicWish(toRecord(row)));
}

/** Two-character pieces of the letters, digits and Han characters of a title (Chinese has no spaces). */
export function titlePieces(title: string): string[] {
  const words = title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const pieces = new Set<string>();
  for (const word of words) {
    const characters = [...word];
    if (characters.length === 1) continue;
    for (let index = 0; index + 1 < characters.length; index += 1) pieces.add(characters[index]! + characters[index + 1]!);
  }
  return [...pieces].slice(0, 12);
}

/**
 * Account deletion (decision 840): the user's votes are removed (the wishes they voted for lose those votes),
 * and their wishes are deleted with every vote on them; wishes merged into those return to the board.
 */
export async function deleteWishData(trx: Db, userId: string): Promise<void> {
  await trx
    .updateTable("wishes")
    .set((eb) => ({ vote_count: eb("vote_count", "-", 1) }))
    .where("id", "in", (eb) => eb.selectFrom("wish_votes").select("wish_id").where("user_id", "=", userId))
    .execute();
  await trx.deleteFrom("wish_votes").where("user_id", "=", userId).execute();
  await trx
    .updateTable("wishes")
    .set({ merged_into: null })
    .where("merged_into", "in", (eb) => eb.selectFrom("wishes as own").select("own.id").where("own.author_id", "=", userId))
    .execute();
  await trx.deleteFrom("wishes").where("author_id", "=", userId).execute();
  await trx.deleteFrom("wish_notice_settings").where("user_id", "=", userId).execute();
}

/**
 * A guest who signs in to an existing account brings their wishes and votes along. A vote that would land on
 * the account's own wish, or twice on one wish, is dropped.
 */
export async function moveWishData(trx: Db, fromUserId: string, toUserId: string): Promise<void> {
  const touched = await trx
    .selectFrom("wish_votes")
    .select("wish_id")
    .where("user_id", "in", [fromUserId, toUserId])
    .union(trx.selectFrom("wishes").select("id as wish_id").where("author_id", "=", fromUserId))
    .execute();
  await trx.updateTable("wishes").set({ author_id: toUserId }).where("author_id", "=", fromUserId).execute();
  await trx
    .insertInto("wish_votes")
    .columns(["wish_id", "user_id", "created_at"])
    .expression(trx.selectFrom("wish_votes").select(["wish_id", sql.lit(toUserId).as("user_id"), "created_at"]).where("user_id", "=", fromUserId))
    .onConflict((conflict) => conflict.columns(["wish_id", "user_id"]).doNothing())
    .execute();
  await trx.deleteFrom("wish_votes").where("user_id", "=", fromUserId).execute();
  await trx
    .deleteFrom("wish_votes")
    .where("user_id", "=", toUserId)
    .where("wish_id", "in", (eb) => eb.selectFrom("wishes").select("id").where("author_id", "=", toUserId))
    .execute();
  await recountVotes(trx, [...new Set(touched.map((row) => row.wish_id))]);
}

/** The account's own wishes and the wishes it voted for (titles only: other people's wishes stay theirs). */
export async function exportWishData(db: Db, userId: string) {
  const wishes = await db
    .selectFrom("wishes")
    .select(["id", "title", "body", "status", "vote_count as votes", "created_at as createdAt", "updated_at as updatedAt"])
    .where("author_id", "=", userId)
    .orderBy("created_at")
    .execute();
  const votes = await db
    .selectFrom("wish_votes")
    .innerJoin("wishes", "wishes.id", "wish_votes.wish_id")
    .select(["wishes.id as wishId", "wishes.title as title", "wish_votes.created_at as votedAt"])
    .where("wish_votes.user_id", "=", userId)
    .orderBy("wish_votes.created_at")
    .execute();
  return { wishes: wishes.map((wish) => ({ ...wish, votes: Number(wish.votes) })), votes };
}
