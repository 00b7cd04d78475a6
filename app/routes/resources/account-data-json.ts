import type { Route } from "./+types/account-data-json";
import { accountDataDownload } from "~/features/account/account-center.server";

// The copy of one's data as a JSON download (the readable page is /account/data).
export const loader = ({ request }: Route.LoaderArgs) => accountDataDownload(request);
