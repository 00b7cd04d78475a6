import type { Route } from "./+types/blog";
import { loadArticleList } from "~/features/content/article-loaders.server";
import { articleListMeta } from "~/features/content/article-meta";
import { ArticleList } from "~/features/content/article-list";

export const loader = ({ request }: Route.LoaderArgs) => loadArticleList("blog", request);

export const meta: Route.MetaFunction = (args) => articleListMeta(args, args.loaderData);

export default function BlogScreen({ loaderData }: Route.ComponentProps) {
  return <ArticleList collection="blog" intro={loaderData.intro} listing={loaderData.listing} />;
}
