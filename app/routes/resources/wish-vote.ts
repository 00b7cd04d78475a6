import type { Route } from "./+types/wish-vote";
import { voteApi } from "~/features/wishes/wish-routes.server";

export const action = ({ request, params }: Route.ActionArgs) => voteApi(request, params.id);
export const loader = ({ request, params }: Route.LoaderArgs) => voteApi(request, params.id);
