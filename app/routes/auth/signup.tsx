import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/signup";
import { pageMeta } from "~/features/seo/page-meta";
import { useAuth } from "~/features/auth/auth-provider";
import { AuthScreen, Field, FormAlert, emailProblem, useSubmission } from "~/features/auth/auth-form";
import { PasswordRulesList } from "~/features/auth/password-rules-list";
import { passwordProblem } from "~/features/auth/password-policy";
import { safeRedirect } from "~/features/auth/redirect-rule";
import { usePublicEnv } from "~/config/use-public-env";
import { getAuthService } from "~/features/auth/auth-service.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "註冊", description: "建立任務小勇士帳號" });

export function loader() {
  return { policy: getAuthService().passwordPolicy };
}

type Fields = "displayName" | "email" | "password" | "confirm";

/** Sign-up, and for a guest the in-place upgrade of the same account. */
export default function SignupScreen({ loaderData }: Route.ComponentProps) {
  const { policy } = loaderData;
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get("redirectTo"), usePublicEnv().siteUrl);
  const isGuest = Boolean(auth.currentUser?.isAnonymous);
  const [values, setValues] = useState<Record<Fields, string>>({ displayName: "", email: "", password: "", confirm: "" });
  const [errors, setErrors] = useState<Partial<Record<Fields, string | null>>>({});
  const { pending, failure, submit } = useSubmission();
  const update = (field: Fields) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = {
      displayName: values.displayName.trim() ? null : "請輸入顯示名稱",
      email: emailProblem(values.email),
      password: passwordProblem(values.password, policy),
      confirm: values.confirm === values.password ? null : "兩次輸入的密碼不一致",
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    void submit(async () => {
      try {
        const action = isGuest ? auth.upgradeGuest : auth.signup;
        await action(values.email.trim(), values.password, values.displayName.trim());
      } catch (error) {
        // Put the server's answer on the field it concerns, and still show it at the top.
        const code = (error as { code?: string }).code;
        if (code === "auth/email-already-in-use" || code === "auth/invalid-email") setErrors({ email: (error as Error).message });
        if (code === "auth/weak-password") setErrors({ password: (error as Error).message });
        throw error;
      }
      const next = redirectTo === "/" ? "" : `?redirectTo=${encodeURIComponent(redirectTo)}`;
      navigate(`/email-verification${next}`, { replace: true });
    });
  };

  return (
    <AuthScreen
      title={isGuest ? "升級訪客帳號" : "註冊"}
      lead={isGuest ? "設定電子郵件與密碼，保留您以訪客身分建立的所有資料。" : "建立帳號，開始和孩子一起完成任務。"}
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormAlert message={failure?.message ?? null} />
        {isGuest && failure?.code === "auth/email-already-in-use" ? (
          <p>
            {/* Signing in to that account moves the guest's data into it. */}
            <Link to={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}>改為登入此帳號（保留訪客資料）</Link>
          </p>
        ) : null}
        <Field name="displayName" label="顯示名稱" autoComplete="nickname" required
          value={values.displayName} onChange={update("displayName")} error={errors.displayName} />
        <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
          value={values.email} onChange={update("email")} error={errors.email} />
        <Field name="password" label="密碼" type="password" autoComplete="new-password" required
          minLength={policy.minLength} maxLength={policy.maxLength}
          value={values.password} onChange={update("password")} error={errors.password}
          hint={<PasswordRulesList password={values.password} policy={policy} />} />
        <Field name="confirm" label="確認密碼" type="password" autoComplete="new-password" required
          value={values.confirm} onChange={update("confirm")} error={errors.confirm} />
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? "處理中…" : "註冊"}
        </button>
      </form>
      <div className="auth-links">
        <span>
          已經有帳號？<Link to={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}>登入</Link>
        </span>
      </div>
    </AuthScreen>
  );
}
