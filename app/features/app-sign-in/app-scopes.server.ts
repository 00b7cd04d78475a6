/**
 * The scopes an app may ask for (docs/app-integration.md). The OpenID ones say who the parent is; `family` opens
 * `GET /api/family` (a third-party app only after the parent's consent); the storage ones open the family's files
 * to the app's access token, and only a first-party app may ask for them: a third-party app's token is never a key
 * to storage.
 */
export const storageScopes = {
  /** The account's own folder (`users/<uid>/`): list, read, upload, delete. */
  files: "storage",
  /** An editor's rights (the blog's folder) as well: only when the grant says so, never by the role alone. */
  editor: "storage:editor",
} as const;

/** Reading the family (its parents and children) through `GET /api/family`. */
export const familyScope = "family";

/**
 * Starting the parent's account deletion from the app (`POST /api/app/account-deletion`): a first-party app may
 * without it; a third-party app only with this scope, which its consent screen names (decision 1012).
 */
export const accountDeletionScope = "account:delete";

const everyAppsScopes = ["openid", "email", "profile", "offline_access", familyScope, accountDeletionScope];

export const supportedScopes = [...everyAppsScopes, storageScopes.files, storageScopes.editor];

/** What one app may ask for (its client metadata's `scope`; the provider refuses anything else as invalid_scope). */
export const allowedScopes = (firstParty: boolean) => (firstParty ? supportedScopes : everyAppsScopes);

/** Whether an access token of an app (first-party or not) with `scope` may start the account's deletion. */
export const mayStartDeletion = (firstParty: boolean, scope: string | undefined) => firstParty || (scope ?? "").split(" ").includes(accountDeletionScope);

/** Whether an access token with `scope` may read the family. */
export const mayReadFamily = (scope: string | undefined) => (scope ?? "").split(" ").includes(familyScope);

/** What an access token with `scope` may do in storage. */
export function storageRights(scope: string | undefined): { files: boolean; editor: boolean } {
  const granted = new Set((scope ?? "").split(" "));
  return { files: granted.has(storageScopes.files), editor: granted.has(storageScopes.files) && granted.has(storageScopes.editor) };
}
