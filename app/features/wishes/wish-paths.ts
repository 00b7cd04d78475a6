import type { BoardQuery, WishOrder, WishStatus } from "./wish-rules";

/** Every href of the wishing well, built in one place. */
export const wishPath = (id: string) => `/wishing-well/${id}`;

export function boardHref({ order, status, page, q = "" }: { order: WishOrder; status: WishStatus | null; page: number; q?: string }): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (order !== "newest") params.set("order", order);
  if (status) params.set("status", status);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/wishing-well?${query}` : "/wishing-well";
}

export const signInHref = (back: string) => `/login?redirectTo=${encodeURIComponent(back)}`;

export const voteApiPath = (id: string) => `/api/wishes/${id}/vote`;
export const similarApiPath = (title: string) => `/api/wishes/similar?title=${encodeURIComponent(title)}`;

export type { BoardQuery };
