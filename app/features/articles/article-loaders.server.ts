import { data } from "react-router";
import { getArticle, listArticles } from "./collections.server";
import { loadData } from "~/features/pages/data.server";
import type { CollectionName } from "./article-types";

/** Loader of a list screen: the page asked for by `?page=` and `?category=`, or 404. */
export function loadArticleList(collection: CollectionName, request: Request) {
  const intro = loadData("pages")[collection];
  const listing = listArticles(collection, new URL(request.url).searchParams);
  return data({ intro, listing }, { status: listing ? 200 : 404 });
}

/** Loader of a detail screen: the article, or 404 for an unknown id. */
export function loadArticle(collection: CollectionName, slug: string | undefined) {
  const article = slug ? getArticle(collection, slug) : null;
  return data({ article }, { status: article ? 200 : 404 });
}
