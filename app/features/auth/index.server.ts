// The sign-in layer's face for server code (loaders, actions, other features' *.server.ts files, the Hono host):
// with index.ts and ways-in/index.ts, the only files of app/features/auth that anything outside the feature imports
// (eslint.config.js). Server-only modules are re-exported only from here, a *.server.ts file, so none reaches a
// browser bundle; so are the browser-safe parts only the server uses (the endpoint table, device names), which keeps
// them out of the chunks that import index.ts. Each line names the file that does the work. Inside the feature,
// import the file itself, never this face.

// The service: built once from the environment, its settings for the sign-in screens, sessions and roles.
export {
  createAuthService,
  devIdentityClient,
  endAllSessions,
  endSessionsOf,
  getAuthService,
  sessionIsActive,
  setUserRole,
  signInScreenSettings,
  socialSignInOrigins,
  type AuthService,
} from "./auth-service.server";
// /api/auth served, the in-process calls the screens' and account center's actions make, and the account pages' reads.
export {
  actionRetryAfter,
  authFailure,
  callAuthApi,
  currentDevices,
  currentIdentity,
  currentSignInMethods,
  currentUserFields,
  hasPasswordWayIn,
  requestAfter,
  serveAuthRequest,
  withCookies,
  type AuthAnswer,
} from "./auth-http.server";
// Who is asking: the viewer of a request, and an operator's standing.
export { getServerSessionUser, getViewer, isEditor, requireRole, requireUser, sessionUserOf, shareSessionLookup, type Viewer } from "./viewer.server";
export { operatorStanding, type OperatorStanding } from "./operator-session.server";
// The user-data registry other features' data joins (deletion, moves, export).
export { deleteUserData, deletionSummary, exportUserData, moveUserData, registerUserDataHandler, type UserDataHandler } from "./user-data-hooks.server";
// A way in's screen action, found through its server twin.
export { screenActionOf, type SignInKit, type WayInId, type WayInServer } from "./way-in-plugins.server";
// How strongly a person signed in (the app sign-in's acr and amr), Apple's server-to-server notifications.
export { acrValues, signInProof } from "./sign-in-proof.server";
export { appleNotificationEndpoint, handleAppleNotification } from "./apple-notifications.server";
// The endpoint table and every path (browser-safe, but server code is its only reader outside the feature).
export { authBasePath, authEndpoint, authEndpointFor, authEndpointNamed, authEndpoints, authPaths, waysIn, type AuthEndpoint } from "./auth-endpoints";
// A device named from its user agent (ua-parser-js stays out of the browser's chunks).
export { appSessionAgent, deviceLabel } from "./device-name";
