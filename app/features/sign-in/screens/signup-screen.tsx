import { useState } from "react";
import { Form, Link } from "react-router";
import { displayNameOf } from "~/features/auth/display-name";
import { useAuth } from "~/features/auth/auth-provider";
import { Field, FormAlert, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, SignedInScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref, guestUpgradeLabel } from "~/features/sign-in/auth-paths";
import { signupSchema } from "~/features/sign-in/sign-in-schemas";
import { PasswordRulesList } from "~/features/sign-in/password-rules-list";
import type { PasswordPolicy } from "~/features/auth/password-policy";

/** `/signup`: sign-up, and for a guest the in-place upgrade of the same account (one POST form for both). */
export function SignupScreen({ policy }: { policy: PasswordPolicy }) {
  const auth = useAuth();
  const redirectTo = useRedirectTo();
  const form = useForm(signupSchema(policy));
  const [password, setPassword] = useState("");
  const isGuest = Boolean(auth.currentUser?.isAnonymous);
  const { values, formError, code } = form.outcome ?? {};

  if (auth.currentUser && !isGuest && !form.pending) {
    return (
      <SignedInScreen
        title="註冊"
        lead={`你已經以 ${displayNameOf(auth.currentUser)} 登入，不需要再註冊。要建立另一個帳號，請先登出。`}
        redirectTo={redirectTo}
        logoutAction={authHref("/login", redirectTo)}
      />
    );
  }

  return (
    <AuthScreen
      title={isGuest ? "升級訪客帳號" : "註冊"}
      lead={isGuest ? "設定電子郵件與密碼，保留你以訪客身分建立的所有資料。" : "建立帳號，開始和孩子一起完成任務。"}
    >
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit} noValidate>
        <FormAlert message={formError ?? null} />
        {isGuest && code === "auth/email-already-in-use" ? (
          <p>
            {/* Signing in to that account moves the guest's data into it. */}
            <Link to={authHref("/login", redirectTo)}>改為登入此帳號（保留訪客資料）</Link>
          </p>
        ) : null}
        <Field name="displayName" label="顯示名稱" autoComplete="nickname" required defaultValue={values?.displayName} error={form.errors.displayName} />
        <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
          defaultValue={values?.email} error={form.errors.email} />
        <Field name="password" label="密碼" type="password" autoComplete="new-password" required
          minLength={policy.minLength} maxLength={policy.maxLength} onChange={(event) => setPassword(event.target.value)}
          error={form.errors.password} hint={<PasswordRulesList password={password} policy={policy} />} />
        <Field name="confirm" label="確認密碼" type="password" autoComplete="new-password" required error={form.errors.confirm} />
        <SubmitButton pending={form.pending} label={isGuest ? guestUpgradeLabel : "註冊"} />
      </Form>
      <div className="auth-links">
        <span>
          已經有帳號？<Link to={authHref("/login", redirectTo)}>登入</Link>
        </span>
      </div>
    </AuthScreen>
  );
}
