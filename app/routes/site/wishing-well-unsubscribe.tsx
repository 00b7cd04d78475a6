import type { Route } from "./+types/wishing-well-unsubscribe";
import { loadUnsubscribe, unsubscribeAction } from "~/features/wishes/wish-routes.server";
import { UnsubscribePage } from "~/features/wishes/unsubscribe-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => loadUnsubscribe(request);
export const action = ({ request }: Route.ActionArgs) => unsubscribeAction(request);

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: "取消許願池通知" }),
  { name: "robots", content: "noindex" },
];

export default function UnsubscribeScreen({ loaderData, actionData }: Route.ComponentProps) {
  return <UnsubscribePage token={actionData?.token ?? loaderData.token} done={actionData?.done ?? null} />;
}
