import type { Route } from "./+types/blog-post";
import { loadArticle } from "~/features/articles/article-loaders.server";
import { articleMeta } from "~/features/articles/article-meta";
import { ArticleDetail } from "~/features/articles/article-detail";

export const loader = ({ params }: Route.LoaderArgs) => loadArticle("blog", params.id);

export const meta: Route.MetaFunction = (args) => articleMeta(args, "blog", args.loaderData?.article);

export default function BlogPostScreen({ loaderData }: Route.ComponentProps) {
  return <ArticleDetail collection="blog" article={loaderData.article} />;
}
