import { z } from "~/lib/zod";

/** The wishing well's rules (PRODUCT §3), shared by the forms in the browser and the actions on the server. */
export const wishLimits = {
  titleMax: 60,
  bodyMax: 500,
  replyMax: 300,
  reasonMax: 200,
  /** The author may correct a wish this long after making it; later edits would change what others voted for. */
  editWindowMinutes: 15,
  pageSize: 20,
} as const;

export const wishStatuses = ["open", "received", "planned", "done", "declined"] as const;
export type WishStatus = (typeof wishStatuses)[number];

export const statusLabels: Record<WishStatus, string> = {
  open: "新願望",
  received: "已收到",
  planned: "規劃中",
  done: "已實現",
  declined: "暫不考慮",
};

/** The statuses the team sets (a new wish starts as `open`). */
export const teamStatuses = ["received", "planned", "done", "declined"] as const satisfies readonly WishStatus[];

/** What the board and the permalink page show of a wish. Authors are not shown (a wish speaks for itself). */
export interface Wish {
  id: string;
  title: string;
  body: string;
  status: WishStatus;
  statusReason: string | null;
  teamReply: string | null;
  voteCount: number;
  createdAt: string;
}

/**
 * Who may vote (PRODUCT §3): a verified account that is not a guest. Guests and unverified addresses cost one
 * person nothing to make again, so their votes would let one person vote many times; a verified mailbox per vote
 * does cost something, and sign-ups are limited per address.
 */
export type VoterStanding = "verified" | "guest" | "unverified";

export function voterStanding(user: { isAnonymous: boolean | number | null; emailVerified: boolean | number }): VoterStanding {
  if (user.isAnonymous) return "guest";
  return user.emailVerified ? "verified" : "unverified";
}

export const wishOrders = ["newest", "votes"] as const;
export type WishOrder = (typeof wishOrders)[number];
export const orderLabels: Record<WishOrder, string> = { newest: "最新", votes: "最多票" };

/** Counts characters as people see them (an emoji is one), the way the limits are announced. */
export const characterCount = (text: string) => [...text].length;

const text = (label: string, max: number) =>
  z
    .string({ error: `請填寫${label}` })
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .refine((value) => characterCount(value) <= max, `${label}最多 ${max} 個字`);

export const wishInput = z.object({
  title: text("願望標題", wishLimits.titleMax).refine((value) => value.length > 0, "請填寫願望標題"),
  body: text("說明", wishLimits.bodyMax).default(""),
});
export type WishInput = z.infer<typeof wishInput>;

export const statusInput = z
  .object({
    status: z.enum(teamStatuses, { error: "請選擇狀態" }),
    reason: text("原因", wishLimits.reasonMax).default(""),
  })
  .refine((value) => value.status !== "declined" || value.reason.length > 0, {
    message: "「暫不考慮」需要寫下原因",
    path: ["reason"],
  });

export const replyInput = z.object({ reply: text("團隊回覆", wishLimits.replyMax).default("") });

export const mergeInput = z.object({
  target: z
    .string({ error: "請填寫要合併到的願望編號或網址" })
    .trim()
    .transform((value) => value.replace(/^.*\/wishing-well\//, "").replace(/[?#].*$/, ""))
    .pipe(z.uuid({ error: "請填寫要合併到的願望編號或網址" })),
});

/** The board's query string: unknown values fall back to the defaults instead of failing. */
export const boardQuery = z.object({
  order: z.enum(wishOrders).catch("newest"),
  status: z.enum(wishStatuses).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  // The search words (title and text), cut to a sane length rather than refused.
  q: z.string().catch("").transform((value) => value.trim().replace(/\s+/g, " ").slice(0, 60)),
});
export type BoardQuery = z.infer<typeof boardQuery>;

export function parseBoardQuery(params: URLSearchParams): BoardQuery {
  return boardQuery.parse({ order: params.get("order"), status: params.get("status"), page: params.get("page") ?? 1, q: params.get("q") ?? "" });
}

/**
 * The words of a search: split at spaces, each to be found somewhere in a wish's title or text. Chinese is written
 * without spaces, so a word is matched as a run of characters anywhere (「深色」 finds 「想要深色模式」), not as a
 * whole word (wishes.server.ts also accepts most of a longer word's pieces); at most five words.
 */
export function searchTerms(q: string): string[] {
  return [...new Set(q.toLowerCase().split(" ").filter(Boolean))].slice(0, 5);
}

export function canEdit(createdAt: string, now = Date.now()): boolean {
  return now - Date.parse(createdAt) < wishLimits.editWindowMinutes * 60_000;
}
