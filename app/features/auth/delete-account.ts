import { useCallback } from "react";
import { authRequest } from "./auth-client";
import { useAuthRefresh } from "./auth-provider";

/**
 * For the account-deletion screen: deletes the signed-in account (the password is required when the account
 * has one; guests and social-only accounts need none), then reloads the now signed-out state.
 * Other features' rows go through the handlers registered in user-data-hooks.server.ts.
 */
export function useDeleteAccount() {
  const refresh = useAuthRefresh();
  return useCallback(
    async (options: { password?: string } = {}) => {
      await authRequest("/delete-user", { body: options.password ? { password: options.password } : {} });
      await refresh();
    },
    [refresh],
  );
}
