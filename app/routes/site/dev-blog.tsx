import type { Route } from "./+types/dev-blog";
import { loadPostList } from "~/features/dev-blog/loaders.server";
import { postListMeta } from "~/features/dev-blog/meta";
import { PostList } from "~/features/dev-blog/post-list";

export const loader = ({ request }: Route.LoaderArgs) => loadPostList(request);

export const meta: Route.MetaFunction = (args) => postListMeta(args, args.loaderData);

export default function DevBlogScreen({ loaderData }: Route.ComponentProps) {
  return <PostList {...loaderData} />;
}
