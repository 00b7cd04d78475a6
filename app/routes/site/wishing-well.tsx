import type { Route } from "./+types/wishing-well";
import { loadBoard, wishAction } from "~/features/wishes/wish-routes.server";
import { WishBoard } from "~/features/wishes/wish-board";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => loadBoard(request);
export const action = ({ request }: Route.ActionArgs) => wishAction(request);

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.content.intro ?? { title: "許願池" });

export default function WishingWellScreen({ loaderData, actionData }: Route.ComponentProps) {
  return <WishBoard data={loaderData} problem={actionData ?? null} />;
}
