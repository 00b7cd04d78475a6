import type { Route } from "./+types/news-item";
import { loadArticle } from "~/features/articles/article-loaders.server";
import { articleMeta } from "~/features/articles/article-meta";
import { ArticleDetail } from "~/features/articles/article-detail";

export const loader = ({ params }: Route.LoaderArgs) => loadArticle("news", params.id);

export const meta: Route.MetaFunction = (args) => articleMeta(args, "news", args.loaderData?.article);

export default function NewsItemScreen({ loaderData }: Route.ComponentProps) {
  return <ArticleDetail collection="news" article={loaderData.article} />;
}
