import type { Route } from "./+types/wish-similar";
import { similarApi } from "~/features/wishes/wish-routes.server";

export const loader = ({ request }: Route.LoaderArgs) => similarApi(request);
