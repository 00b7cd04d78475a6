import type { Route } from "./+types/account-photo";
import { profilePhotoAction } from "~/features/account/account-center.server";

// The profile photo forms of /account (a new photo, or remove it); each answers with a redirect back there.
export const action = ({ request }: Route.ActionArgs) => profilePhotoAction(request);
