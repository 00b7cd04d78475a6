import type { Route } from "./+types/news";
import { loadArticleList } from "~/features/articles/article-loaders.server";
import { articleListMeta } from "~/features/articles/article-meta";
import { ArticleList } from "~/features/articles/article-list";

export const loader = ({ request }: Route.LoaderArgs) => loadArticleList("news", request);

export const meta: Route.MetaFunction = (args) => articleListMeta(args, args.loaderData);

export default function NewsScreen({ loaderData }: Route.ComponentProps) {
  return <ArticleList collection="news" intro={loaderData.intro} listing={loaderData.listing} />;
}
