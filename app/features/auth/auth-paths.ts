/**
 * Where each shared endpoint of the sign-in layer is (under /api/auth), by its name in the endpoint table
 * (auth-endpoints.ts); a way in that brings endpoints of its own spells their paths in its unit (ways-in/phone/phone.ts),
 * in the same form. Nowhere else is a path spelled: code names an endpoint (`authPaths.signInEmail`; on the server
 * auth-endpoints.ts's `authPaths` holds these and every unit's), and tests/integration/auth-endpoints.test.ts holds
 * it to that. One export per path, imported as `import * as authPaths`, so the browser's bundle carries only the
 * paths it calls, not the table.
 */
/** Where the sign-in layer's API is served; every path below is under it. */
export const authBasePath = "/api/auth";
export const signUpEmail = "/sign-up/email";
export const signInEmail = "/sign-in/email";
export const signInSocial = "/sign-in/social";
export const callbackId = "/callback/:id";
export const getSession = "/get-session";
export const signOut = "/sign-out";
export const verifyEmail = "/verify-email";
export const sendVerificationEmail = "/send-verification-email";
export const requestPasswordReset = "/request-password-reset";
export const resetPasswordToken = "/reset-password/:token";
export const resetPassword = "/reset-password";
export const changePassword = "/change-password";
export const verifyPassword = "/verify-password";
export const changeEmail = "/change-email";
export const updateUser = "/update-user";
export const updateSession = "/update-session";
export const deleteUser = "/delete-user";
export const deleteUserCallback = "/delete-user/callback";
export const listSessions = "/list-sessions";
export const revokeSession = "/revoke-session";
export const revokeSessions = "/revoke-sessions";
export const revokeOtherSessions = "/revoke-other-sessions";
export const linkSocial = "/link-social";
export const listAccounts = "/list-accounts";
export const unlinkAccount = "/unlink-account";
export const refreshToken = "/refresh-token";
export const getAccessToken = "/get-access-token";
export const accountInfo = "/account-info";
export const ok = "/ok";
export const error = "/error";
export const signInAnonymous = "/sign-in/anonymous";
export const deleteAnonymousUser = "/delete-anonymous-user";
export const guestUpgrade = "/guest/upgrade";
export const me = "/me";
export const devices = "/devices";
export const devicesEnd = "/devices/end";
export const confirmIdentity = "/confirm-identity";
export const signInMethods = "/sign-in-methods";
export const accountData = "/account-data";
export const jwks = "/jwks";
export const token = "/token";
export const emailLinkRequest = "/email-link/request";
export const emailLinkSignIn = "/email-link/sign-in";
export const twoFactorEnable = "/two-factor/enable";
export const twoFactorDisable = "/two-factor/disable";
export const twoFactorGetTotpUri = "/two-factor/get-totp-uri";
export const twoFactorGenerateBackupCodes = "/two-factor/generate-backup-codes";
export const twoFactorVerifyTotp = "/two-factor/verify-totp";
export const twoFactorVerifyBackupCode = "/two-factor/verify-backup-code";
export const twoFactorSendOtp = "/two-factor/send-otp";
export const twoFactorVerifyOtp = "/two-factor/verify-otp";
export const passkeyRegisterOptions = "/passkey/register/options";
export const passkeyRegisterVerify = "/passkey/register/verify";
export const passkeyList = "/passkey/list";
export const passkeyRename = "/passkey/rename";
export const passkeyDelete = "/passkey/delete";
export const passkeySignInOptions = "/passkey/sign-in/options";
export const passkeySignInVerify = "/passkey/sign-in/verify";
export const oauthPopupStart = "/oauth-popup/start";
export const signInMethodsRemove = "/sign-in-methods/remove";
export const setPassword = "/set-password";
export const botCheckChallenge = "/bot-check/challenge";
