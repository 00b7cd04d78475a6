// The ways in's face: each unit (ways-in/<name>/<name>.ts, browser-safe) and what the screens and the account center
// take from it, one line per way in. `npm run new:way-in` writes a new way in's line; add a name to its line when
// something outside the feature needs it. With index.ts and index.server.ts, the only files of app/features/auth that
// anything outside the feature imports (eslint.config.js); inside the feature, import the unit itself.
export type { WayIn, WayInRow } from "~/features/auth/way-in";
export { passwordWayIn } from "./password/password";
export { socialWayIn } from "./social/social";
export { guestWayIn } from "./guest/guest";
export { emailLinkWayIn, emailAddress, emailLinkRequestSchema } from "./email-link/email-link";
export { passkeyWayIn } from "./passkey/passkey";
export { phoneWayIn, phoneCodeSchema, phoneSchema } from "./phone/phone";
export { emailCodeWayIn, emailCodeRequestSchema, emailCodeSchema } from "./email-code/email-code";
