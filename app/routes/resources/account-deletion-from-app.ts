import type { Route } from "./+types/account-deletion-from-app";
import { openDeletionFromApp } from "~/features/account/app-deletion.server";

// Where the app opens deletion (docs/app-integration.md): on to the deletion page, or to sign in first.
export const loader = ({ request }: Route.LoaderArgs) => openDeletionFromApp(request);
