import { useState } from "react";
import { Form, Link } from "react-router";
import { displayNameOf, useAuth, type PasswordPolicy, botCheckWaitingLabel, useBotCheck } from "~/features/auth";
import { Field, FormAlert, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, SignedInScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref, guestUpgradeLabel } from "~/features/sign-in/auth-paths";
import { signupSchema } from "~/features/sign-in/sign-in-schemas";
import { PasswordRulesList } from "~/features/sign-in/password-rules-list";

/** `/signup`: sign-up, and for a guest the in-place upgrade of the same account (one POST form for both). */
export function SignupScreen({ policy }: { policy: PasswordPolicy }) {
  const auth = useAuth();
  const redirectTo = useRedirectTo();
  const form = useForm(signupSchema(policy));
  const check = useBotCheck(form.outcome);
  const [password, setPassword] = useState("");
  const isGuest = Boolean(auth.currentUser?.isAnonymous);
  const { values, code } = form.outcome ?? {};
  // An answer's complaint about a field goes once that field is edited (「密碼太常見」 must not outlive the password).
  const [edited, setEdited] = useState<{ outcome: unknown; fields: string[] }>({ outcome: undefined, fields: [] });
  const editedNow = edited.outcome === form.outcome ? edited.fields : [];
  const onEdit = (event: React.FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (form.outcome && name && !editedNow.includes(name)) setEdited({ outcome: form.outcome, fields: [...editedNow, name] });
  };
  const answeredFields = Object.keys(form.outcome?.fieldErrors ?? {});
  const formError = answeredFields.length && answeredFields.every((name) => editedNow.includes(name)) ? null : (form.outcome?.formError ?? null);
  const errorOf = (name: keyof typeof form.errors) => (editedNow.includes(name) && form.errors === form.outcome?.fieldErrors ? undefined : form.errors[name]);

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
      <Form method="post" action={form.action} className="auth-form" onSubmit={(event) => {
          form.onSubmit(event);
          check.hold(event);
        }} onChange={onEdit} noValidate>
        <FormAlert message={formError} />
        {check.field}
        {isGuest && code === "auth/email-already-in-use" ? (
          <p>
            {/* Signing in to that account moves the guest's data into it. */}
            <Link to={authHref("/login", redirectTo)}>改為登入此帳號（保留訪客資料）</Link>
          </p>
        ) : null}
        <Field name="displayName" label="顯示名稱" autoComplete="nickname" required defaultValue={values?.displayName} error={errorOf("displayName")} />
        <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
          defaultValue={values?.email} error={errorOf("email")} />
        <Field name="password" label="密碼" type="password" autoComplete="new-password" required
          minLength={policy.minLength} maxLength={policy.maxLength} onChange={(event) => setPassword(event.target.value)}
          error={errorOf("password")} hint={<PasswordRulesList password={password} policy={policy} />} />
        <Field name="confirm" label="確認密碼" type="password" autoComplete="new-password" required error={errorOf("confirm")} />
        {/* The notice at the point of collection (個人資料保護法第 8 條): what is collected and why, and where the rest is. */}
        <p className="auth-legal">
          我們會蒐集你的電子郵件與顯示名稱，用來建立與管理帳號、寄送驗證信與帳號通知。蒐集的目的、利用的期間與方式，以及你可以行使的權利，請見
          <Link to="/privacy" target="_blank">隱私權政策</Link>；按下「{isGuest ? guestUpgradeLabel : "註冊"}」即表示你同意
          <Link to="/terms" target="_blank">服務條款</Link>。
        </p>
        <SubmitButton pending={form.pending || check.waiting} label={isGuest ? guestUpgradeLabel : "註冊"}
          pendingLabel={check.waiting ? botCheckWaitingLabel : undefined} />
      </Form>
      <div className="auth-links">
        <span>
          已經有帳號？<Link to={authHref("/login", redirectTo)}>登入</Link>
        </span>
      </div>
    </AuthScreen>
  );
}
