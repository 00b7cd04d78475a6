import type { Route } from "./+types/account-family";
import { FamilyPage } from "~/features/family/family-page";
import { familyAction, loadFamilyScreen } from "~/features/family/family-actions.server";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => loadFamilyScreen(request);
export const action = ({ request }: Route.ActionArgs) => familyAction(request);
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "家庭", description: "管理家庭的家長、孩子與邀請。" });

export default function AccountFamily({ loaderData }: Route.ComponentProps) {
  return <FamilyPage {...loaderData} />;
}
