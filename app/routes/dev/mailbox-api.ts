import type { Route } from "./+types/mailbox-api";
import { devMailboxApi } from "~/features/dev-tools/dev-mailbox.server";

export const loader = ({ request }: Route.LoaderArgs) => devMailboxApi(request);
