import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/reset-password";
import { pageMeta } from "~/features/seo/page-meta";
import { AuthScreen, Field, FormAlert, useSubmission } from "~/features/auth/auth-form";
import { PasswordRulesList } from "~/features/auth/password-rules-list";
import { passwordProblem } from "~/features/auth/password-policy";
import { confirmPasswordReset } from "~/features/auth/auth-client";
import { useAuthRefresh } from "~/features/auth/auth-provider";
import { getAuthService } from "~/features/auth/auth-service.server";
import { useLinkParams } from "~/features/auth/link-params";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "重設密碼", description: "設定新的密碼" });

export function loader() {
  return { policy: getAuthService().passwordPolicy };
}

/** Target of the reset link: the new password twice, then back to /login. */
export default function ResetPasswordScreen({ loaderData }: Route.ComponentProps) {
  const { policy } = loaderData;
  const navigate = useNavigate();
  const refresh = useAuthRefresh();
  const { token } = useLinkParams(["token"]);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string | null; confirm?: string | null }>({});
  const { pending, failure, submit } = useSubmission();

  if (!token) {
    return (
      <AuthScreen title="重設密碼" lead="這個重設連結不完整，請重新申請重設密碼信。">
        <div className="auth-actions">
          <Link className="button button--primary" to="/forgot-password">
            重新申請
          </Link>
        </div>
      </AuthScreen>
    );
  }

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = {
      password: passwordProblem(password, policy),
      confirm: confirm === password ? null : "兩次輸入的密碼不一致",
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    void submit(async () => {
      await confirmPasswordReset(token, password);
      // The reset revoked every session, this browser's too.
      await refresh().catch(() => null);
      navigate("/login?reset=done", { replace: true });
    });
  };

  return (
    <AuthScreen title="重設密碼" lead="請設定新的密碼。">
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormAlert message={failure?.message ?? null} />
        {failure?.code === "auth/invalid-action-code" ? (
          <p>
            <Link to="/forgot-password">重新申請重設密碼信</Link>
          </p>
        ) : null}
        <Field name="password" label="新密碼" type="password" autoComplete="new-password" required
          value={password} onChange={(event) => setPassword(event.target.value)} error={errors.password}
          hint={<PasswordRulesList password={password} policy={policy} />} />
        <Field name="confirm" label="確認新密碼" type="password" autoComplete="new-password" required
          value={confirm} onChange={(event) => setConfirm(event.target.value)} error={errors.confirm} />
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? "處理中…" : "重設密碼"}
        </button>
      </form>
    </AuthScreen>
  );
}
