/**
 * The scopes an app may ask for (docs/app-integration.md). The OpenID ones say who the parent is; the storage
 * ones open the family's files to the app's access token, and only a first-party app may ask for them: a
 * third-party app's token is never a key to storage.
 */
export const storageScopes = {
  /** The account's own folder (`users/<uid>/`): list, read, upload, delete. */
  files: "storage",
  /** An editor's rights (the blog's folder) as well: only when the grant says so, never by the role alone. */
  editor: "storage:editor",
} as const;

const openIdScopes = ["openid", "email", "profile", "offline_access"];

export const supportedScopes = [...openIdScopes, storageScopes.files, storageScopes.editor];

/** What one app may ask for (its client metadata's `scope`; the provider refuses anything else as invalid_scope). */
export const allowedScopes = (firstParty: boolean) => (firstParty ? supportedScopes : openIdScopes);

/** What an access token with `scope` may do in storage. */
export function storageRights(scope: string | undefined): { files: boolean; editor: boolean } {
  const granted = new Set((scope ?? "").split(" "));
  return { files: granted.has(storageScopes.files), editor: granted.has(storageScopes.files) && granted.has(storageScopes.editor) };
}
