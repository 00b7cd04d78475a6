export interface Page<T> {
  items: T[];
  page: number;
  pageCount: number;
}

/** `?page=` as a page number: absent means 1; anything but a positive integer is invalid (null). */
export function parsePageParam(value: string | null): number | null {
  if (value === null) return 1;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

/** One page of `items`; null when the page lies beyond the last one (an empty list still has page 1). */
export function paginate<T>(items: readonly T[], page: number, pageSize: number): Page<T> | null {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  if (page < 1 || page > pageCount) return null;
  return { items: items.slice((page - 1) * pageSize, page * pageSize), page, pageCount };
}
