import { useCallback } from "react";
import { authRequest } from "./auth-client";
import { mirrorSessionUser } from "./session-user";
import { useAuthRefresh } from "./auth-provider";

/**
 * Deletes the signed-in account. The password is required when the account has one (guests and social-only
 * accounts need none). Other features' rows go first, through the handlers registered in
 * user-data-hooks.server.ts; sessions and linked accounts cascade. Fails with an AuthError.
 */
export async function deleteAccount(options: { password?: string } = {}): Promise<void> {
  await authRequest("/delete-user", { body: options.password ? { password: options.password } : {} });
  mirrorSessionUser(null);
}

/** For the account-deletion screen: `deleteAccount`, then the now signed-out state everywhere in the page. */
export function useDeleteAccount() {
  const refresh = useAuthRefresh();
  return useCallback(
    async (options: { password?: string } = {}) => {
      await deleteAccount(options);
      await refresh();
    },
    [refresh],
  );
}
