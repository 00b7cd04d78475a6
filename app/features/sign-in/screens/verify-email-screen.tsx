import { useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import type { FormResult } from "~/lib/form-result";
import { useAuth, useAuthRefresh, AuthError, verifyEmailToken, authError } from "~/features/auth";
import { FormAlert } from "~/components/form/form";
import { AuthScreen, NextStep } from "~/features/sign-in/sign-in-screen";
import { useLinkParams } from "~/features/sign-in/link-params";
import { useScripted } from "~/components/use-scripted";

type Outcome = { state: "checking" } | { state: "verified" } | { state: "failed"; message: string };

/** Target of the verification link: verifies once after hydration and says how it went. */
export function VerifyEmailScreen() {
  const { token, email } = useLinkParams(["token", "email"]);
  const refresh = useAuthRefresh();
  const { currentUser } = useAuth();
  const [checked, setOutcome] = useState<Outcome>({ state: "checking" });
  // Without JavaScript nothing is being checked: the page asks for the button instead of saying 正在驗證… forever.
  const scripted = useScripted();
  // Without JavaScript the page offers a button that posts the token to the route action instead.
  const posted = useActionData() as FormResult | undefined;
  const outcome: Outcome = posted?.done
    ? { state: "verified" }
    : posted?.formError
      ? { state: "failed", message: "此驗證連結已過期或已使用過。" }
      : checked;

  useEffect(() => {
    let current = true;
    const check = token ? verifyEmailToken(token) : Promise.reject(authError("auth/invalid-action-code"));
    check
      .then(async () => {
        await refresh().catch(() => null);
        if (current) setOutcome({ state: "verified" });
      })
      .catch((error: unknown) => {
        const message = error instanceof AuthError && error.code !== "auth/invalid-action-code"
          ? error.message
          : "此驗證連結已過期或已使用過。";
        if (current) setOutcome({ state: "failed", message });
      });
    return () => {
      current = false;
    };
  }, [token, refresh]);

  if (outcome.state === "checking") {
    return (
      <AuthScreen title="電子郵件驗證" lead={scripted ? "正在驗證你的電子郵件…" : "請按「完成驗證」。"}>
        <noscript>
          <Form method="post" className="auth-actions">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className="button button--primary">
              完成驗證
            </button>
          </Form>
        </noscript>
      </AuthScreen>
    );
  }
  if (outcome.state === "verified") {
    // Someone already signed in (usually in the browser they signed up in) goes on; anyone else signs in.
    const signedIn = Boolean(currentUser && !currentUser.isAnonymous);
    return (
      <AuthScreen
        title="電子郵件驗證"
        lead={`${email || "你的電子郵件"} 已完成驗證！${signedIn ? "你已經登入，可以繼續使用。" : "現在可以使用電子郵件與密碼登入。"}`}
      >
        {signedIn ? <NextStep to="/">繼續</NextStep> : <NextStep to="/login">前往登入</NextStep>}
      </AuthScreen>
    );
  }
  return (
    <AuthScreen title="電子郵件驗證">
      <FormAlert message={outcome.message} />
      <NextStep to={email ? `/email-verification?${new URLSearchParams({ email })}` : "/email-verification"}>取得新的驗證信</NextStep>
    </AuthScreen>
  );
}
