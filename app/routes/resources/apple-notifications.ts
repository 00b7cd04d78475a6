import type { Route } from "./+types/apple-notifications";
import { handleAppleNotification } from "~/features/auth/index.server";

// Apple's server-to-server notifications about Sign in with Apple (docs/app-integration.md).
export const action = ({ request }: Route.ActionArgs) => handleAppleNotification(request);
export const loader = ({ request }: Route.LoaderArgs) => handleAppleNotification(request);
