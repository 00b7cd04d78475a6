import type { Route } from "./+types/blog";
import { loadArticleList } from "~/features/articles/article-loaders.server";
import { articleListMeta } from "~/features/articles/article-meta";
import { ArticleList } from "~/features/articles/article-list";

export const loader = ({ request }: Route.LoaderArgs) => loadArticleList("blog", request);

export const meta: Route.MetaFunction = (args) => articleListMeta(args, args.loaderData);

export default function BlogScreen({ loaderData }: Route.ComponentProps) {
  return <ArticleList collection="blog" intro={loaderData.intro} listing={loaderData.listing} />;
}
