import type { Route } from "./+types/csp-report";
import { handleCspReport } from "~/features/security/csp-report.server";

export const action = ({ request }: Route.ActionArgs) => handleCspReport(request);
export const loader = ({ request }: Route.LoaderArgs) => handleCspReport(request);
