import type { Route } from "./+types/parent";
import { consoleParent, consoleParentAction } from "~/features/admin/operator-console.server";
import { ParentPage } from "~/features/admin/parent-page";
import { ConsoleGatePage } from "~/features/admin/console-gate-page";
import { notFoundMeta, pageMeta } from "~/features/seo/page-meta";

// One parent's file in the operator console (/admin/users/:id) and its actions; admins only, never cached.
export const loader = ({ request, params }: Route.LoaderArgs) => consoleParent(request, params.id);
export const action = ({ request, params }: Route.ActionArgs) => consoleParentAction(request, params.id);
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) =>
  args.data?.state === "open" ? [...pageMeta(args, { title: "管理後台：家長帳號" }), { name: "robots", content: "noindex" }] : notFoundMeta(args);

export default function ParentScreen({ loaderData }: Route.ComponentProps) {
  return loaderData.state === "open" ? <ParentPage {...loaderData} /> : <ConsoleGatePage closed={loaderData} />;
}
