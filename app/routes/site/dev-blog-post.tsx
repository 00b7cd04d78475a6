import type { Route } from "./+types/dev-blog-post";
import { loadPostPage } from "~/features/dev-blog/loaders.server";
import { postMeta } from "~/features/dev-blog/meta";
import { PostView } from "~/features/dev-blog/post-view";

export const loader = ({ request, params }: Route.LoaderArgs) => loadPostPage(request, params.id);

export const meta: Route.MetaFunction = (args) => postMeta(args, args.loaderData);

export default function DevBlogPostScreen({ loaderData }: Route.ComponentProps) {
  return <PostView {...loaderData} />;
}
