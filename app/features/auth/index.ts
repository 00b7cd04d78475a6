// The sign-in layer's face for code that can reach the browser (screens, hooks, forms, and the server code that
// shares them): the only file of app/features/auth, with index.server.ts and ways-in/index.ts, that anything outside
// the feature imports (eslint.config.js). Each line names the file that does the work, so go-to-definition lands there.
// It holds nothing but these lines, so the build may declare it free of side effects (vite.config.ts): a page then
// loads only the modules whose names it uses, not all of them. Server-only parts go on index.server.ts. Inside the
// feature, import the file itself, never this face.

// The browser's client: requests to /api/auth, its error, the sign-in screens' addresses, the session's shapes.
export {
  AuthError,
  authPaths,
  authRequest,
  emailLinkPath,
  methodLabels,
  resetPasswordPage,
  twoStepPath,
  verifyEmailToken,
  type AccountData,
  type DeviceSession,
  type SessionUser,
  type SignInMethods,
  type SocialProvider,
} from "./auth-client";
export type { IdentityRecord } from "./identity-record";
// The signed-in state in React, and a screen's action that refreshes it.
export { AuthProvider, useAuth, useAuthRefresh, withSessionRefresh, type AuthState } from "./auth-provider";
// The catalogue of error messages.
export { authError, authErrorMessages, messageForCode, wrongPasswordMessage, type AuthErrorCode } from "./auth-error-messages";
// The password policy, how a user is named, how a phone number is typed and shown, the roles.
export { commonPasswordMessage, normalizePassword, passwordProblem, passwordRules, type PasswordPolicy } from "./password-policy";
export { displayNameOf } from "./display-name";
export { accountName, displayPhoneNumber, givenEmail, phoneAccountEmail, toE164 } from "./phone-number";
export { isRole, roles, type Role } from "./roles";
// The bot check's form field and hook, and the social providers' buttons.
export { BotCheckField, botCheckWaitingLabel, useBotCheck } from "./bot-check-field";
export { SocialButtons, socialButtonLabels } from "./social-buttons";
