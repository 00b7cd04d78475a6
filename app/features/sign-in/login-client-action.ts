import { withSessionRefresh } from "~/features/auth";

/**
 * `/login`'s action in the browser: the server's, then the session refreshed; after a password sign-in (the form
 * without an `intent`), the browser may save a passkey by itself (passkey-client.ts). That runs on after the
 * action, so the parent's way on is never held up; a sign-in that still needs a second step has no session, and
 * the passkey's options are refused quietly.
 */
export async function loginClientAction<T>(request: Request, serverAction: () => Promise<T>): Promise<T> {
  const byPassword = !(await request.clone().formData()).get("intent");
  try {
    return await withSessionRefresh(serverAction);
  } finally {
    if (byPassword && typeof PublicKeyCredential !== "undefined") {
      void import("./passkey-client").then((client) => client.offerPasskeyAfterPassword()).catch(() => undefined);
    }
  }
}
