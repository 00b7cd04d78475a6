import type { Route } from "./+types/wishing-well-wish";
import { loadWish, wishAction } from "~/features/wishes/wish-routes.server";
import { WishDetailPage } from "~/features/wishes/wish-detail";
import { wishMeta } from "~/features/wishes/wish-meta";
import { NotFoundMain } from "~/components/not-found-main";

export const loader = ({ request, params }: Route.LoaderArgs) => loadWish(request, params.id);
export const action = ({ request, params }: Route.ActionArgs) => wishAction(request, params.id);

export const meta: Route.MetaFunction = (args) => wishMeta(args, args.loaderData?.wish?.wish);

export default function WishScreen({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.wish) return <NotFoundMain />;
  return <WishDetailPage data={loaderData.wish} problem={actionData ?? null} />;
}
