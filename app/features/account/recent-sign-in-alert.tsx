import { Link } from "react-router";
import { FormAlert } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";

export const confirmIdentityPath = "/account/confirm-identity";

export const confirmIdentityHref = (returnTo: string) => `${confirmIdentityPath}?${new URLSearchParams({ redirectTo: returnTo })}`;

/**
 * A form's refusal, and when it is the recent-sign-in guard's (`auth/requires-recent-login`, 請先確認是你本人),
 * the one way on: confirm who you are, then come back to `returnTo` and send the form again.
 */
export function AccountFormAlert({ outcome, returnTo }: { outcome: FormResult | undefined; returnTo: string }) {
  if (!outcome?.formError) return null;
  return (
    <>
      <FormAlert message={outcome.formError} />
      {outcome.code === "auth/requires-recent-login" ? (
        <p className="recent-sign-in">
          為了保護你的帳號，距離上次登入超過 10 分鐘後，變更重要設定前要先確認是你本人。
          <Link className="button" to={confirmIdentityHref(returnTo)}>
            確認身分
          </Link>
        </p>
      ) : null}
    </>
  );
}
