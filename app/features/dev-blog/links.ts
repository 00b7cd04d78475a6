/** Addresses of the dev blog, built in one place. */
export const devBlogPath = "/dev-blog";
export const postHref = (id: string) => `${devBlogPath}/${id}`;
export const editHref = (id: string) => `${devBlogPath}/${id}/edit`;
export const createHref = `${devBlogPath}/create`;
export const feedHref = `${devBlogPath}/feed.xml`;

/** The list with an optional tag filter and page (page 1 and no tag are left out of the address). */
export function listHref({ tag, page }: { tag?: string | null; page?: number } = {}): string {
  const params = new URLSearchParams();
  if (tag) params.set("tag", tag);
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${devBlogPath}?${query}` : devBlogPath;
}
