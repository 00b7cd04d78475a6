import type { Route } from "./+types/console";
import { consoleSearch } from "~/features/admin/operator-console.server";
import { ConsolePage } from "~/features/admin/console-page";
import { ConsoleGatePage } from "~/features/admin/console-gate-page";
import { notFoundMeta, pageMeta } from "~/features/seo/page-meta";

// The operator console's search (/admin): admins only (everyone else sees the site's 404), never cached.
export const loader = ({ request }: Route.LoaderArgs) => consoleSearch(request);
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) =>
  args.data?.state === "open" ? [...pageMeta(args, { title: "管理後台" }), { name: "robots", content: "noindex" }] : notFoundMeta(args);

export default function ConsoleScreen({ loaderData }: Route.ComponentProps) {
  return loaderData.state === "open" ? <ConsolePage {...loaderData} /> : <ConsoleGatePage closed={loaderData} />;
}
