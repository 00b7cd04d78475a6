import { data } from "react-router";
import { z } from "zod";
import { parsePageParam } from "~/features/articles/pagination";
import { editorOrNull } from "./access.server";
import { devBlogTexts, postStore } from "./blog-service.server";
import { PAGE_SIZE } from "./posts.server";
import { LIMITS, POST_ID_PATTERN } from "./post-input";
import type { PostListPage } from "./types";

const tagParam = z.string().trim().min(1).max(LIMITS.tag);

/**
 * `/dev-blog`: one page of published posts, newest first, optionally one tag's. A page past the last, a bad
 * `?page=` or a malformed tag is a 404. Editors (only requests carrying a session are looked up) also see drafts.
 */
export async function loadPostList(request: Request) {
  const params = new URL(request.url).searchParams;
  const texts = devBlogTexts();
  const page = parsePageParam(params.get("page"));
  const rawTag = params.get("tag");
  const tag = rawTag === null ? null : tagParam.safeParse(rawTag).data ?? undefined;
  const editor = await editorOrNull(request);
  const drafts = editor ? await postStore().listDrafts() : null;
  if (page === null || tag === undefined) return data({ texts, listing: null, drafts }, { status: 404 });

  const { items, total } = await postStore().listPublished({ page, tag });
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const listing: PostListPage | null = page > pageCount ? null : { items, page, pageCount, tag };
  return data({ texts, listing, drafts }, { status: listing ? 200 : 404 });
}

/** `/dev-blog/:id`: a published post for everyone; a draft only for editors (everyone else: 404, as if absent). */
export async function loadPostPage(request: Request, id: string | undefined) {
  const notFound = () => data({ post: null, canEdit: false, notFoundTitle: devBlogTexts().notFound }, { status: 404 });
  if (!id || !POST_ID_PATTERN.test(id)) return notFound();
  const post = await postStore().getPage(id);
  if (!post) return notFound();
  const editor = await editorOrNull(request);
  if (post.status !== "published" && !editor) return notFound();
  return data({ post, canEdit: Boolean(editor), notFoundTitle: null }, { status: 200 });
}
