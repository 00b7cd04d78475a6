import type { WayInServer } from "~/features/auth/way-in-plugins.server";
import { wayInServer as emailLink } from "./email-link/email-link.server";
import { wayInServer as guest } from "./guest/guest.server";
import { wayInServer as passkey } from "./passkey/passkey.server";
import { wayInServer as phone } from "./phone/phone.server";
import { wayInServer as social } from "./social/social.server";
import { wayInServer as emailCode } from "./email-code/email-code.server";
import { wayInServer as password } from "./password/password.server";

/**
 * Every way in's server twin, named here so that a reader (and go-to-definition) follows a screen's action to its
 * twin. `npm run new:way-in` adds a new one's line; the units' order in `waysIn` (auth-endpoints.ts), not this
 * list's, decides the order of their plugins. A unit with no twin has no line.
 */
export const wayInTwins: readonly WayInServer[] = [password, emailLink, guest, passkey, phone, social, emailCode];
