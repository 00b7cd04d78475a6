import type { Route } from "./+types/analytics";
import { handleAnalyticsRequest } from "~/features/analytics/analytics-endpoint.server";

export const action = ({ request }: Route.ActionArgs) => handleAnalyticsRequest(request);
export const loader = ({ request }: Route.LoaderArgs) => handleAnalyticsRequest(request);
