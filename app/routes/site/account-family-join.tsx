import type { Route } from "./+types/account-family-join";
import { JoinPage } from "~/features/family/join-page";
import { joinAction, loadJoinScreen } from "~/features/family/family-actions.server";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => loadJoinScreen(request);
export const action = ({ request }: Route.ActionArgs) => joinAction(request);
export const headers = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "加入家庭", description: "接受另一位家長的邀請，加入家庭。" });

export default function AccountFamilyJoin({ loaderData }: Route.ComponentProps) {
  return <JoinPage {...loaderData} />;
}
