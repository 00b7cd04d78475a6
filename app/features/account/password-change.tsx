import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Field, FormAlert, FormNotice, useForm } from "~/components/form/form";
import { changePasswordSchema } from "./account-schemas";
import { PasswordRulesList } from "~/features/sign-in/password-rules-list";
import { type PasswordPolicy, BotCheckField } from "~/features/auth";
import { z } from "~/lib/zod";

/** The reset-link form posts nothing but its intent. */
const noFields = z.object({});

/**
 * 更改密碼 (ASVS 6.2.2): the current password, the new one twice under the sign-up policy, and whether to sign
 * out every other device (on by default). A POST form that works before the JavaScript arrives; with it, the
 * shared schema answers in the browser first. An account without a password (social sign-in only) is offered
 * the reset link instead, which sets a first password.
 */
export function PasswordChange({ email, username, hasPassword, policy }: { email: string | null; username: string; hasPassword: boolean; policy: PasswordPolicy }) {
  return (
    <section className="page-section" aria-labelledby="security-password">
      <h2 id="security-password">更改密碼</h2>
      {hasPassword ? (
        <PasswordForm email={username} policy={policy} />
      ) : email ? (
        <PasswordLink email={email} />
      ) : (
        <p>
          這個帳號用手機號碼登入，還沒有密碼，也還沒有電子郵件。先到<Link to="/account#email">帳號設定</Link>加入電子郵件，之後就能設定密碼。
        </p>
      )}
    </section>
  );
}

function PasswordForm({ email, policy }: { email: string; policy: PasswordPolicy }) {
  const form = useForm(changePasswordSchema(policy), "change-password");
  const [password, setPassword] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const { done, notice, formError, fieldErrors } = form.outcome ?? {};

  // A changed password leaves nothing typed behind (without JavaScript the answer is a fresh page anyway).
  const [answered, setAnswered] = useState(form.outcome);
  if (answered !== form.outcome) {
    setAnswered(form.outcome);
    if (done) setPassword("");
  }
  useEffect(() => {
    if (done) formRef.current?.reset();
  }, [form.outcome, done]);

  return (
    <Form ref={formRef} method="post" className="card auth-form security-form" onSubmit={form.onSubmit} noValidate>
      <input type="hidden" name="intent" value="change-password" />
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormNotice message={done && !form.pending ? (notice ?? null) : null} />
      <FormAlert message={fieldErrors ? null : (formError ?? null)} />
      <Field name="currentPassword" label="目前的密碼" type="password" autoComplete="current-password" required error={form.errors.currentPassword} />
      <Field name="password" label="新密碼" type="password" autoComplete="new-password" required
        minLength={policy.minLength} maxLength={policy.maxLength} onChange={(event) => setPassword(event.target.value)}
        error={form.errors.password} hint={<PasswordRulesList password={password} policy={policy} />} />
      <Field name="confirm" label="確認新密碼" type="password" autoComplete="new-password" required error={form.errors.confirm} />
      <label className="security-check">
        <input type="checkbox" name="signOutOthers" defaultChecked />
        <span>同時登出其他所有裝置（建議勾選；這個裝置會保持登入）</span>
      </label>
      <button type="submit" className="button button--primary" disabled={form.pending}>
        {form.pending ? "更新中…" : "更新密碼"}
      </button>
    </Form>
  );
}

function PasswordLink({ email }: { email: string }) {
  const form = useForm(noFields, "send-password-link");
  const { done, notice, formError } = form.outcome ?? {};
  return (
    <Form method="post" className="card auth-form security-form" onSubmit={form.onSubmit}>
      <input type="hidden" name="intent" value="send-password-link" />
      <BotCheckField renew={form.outcome} />
      <p>你是用 Google、Facebook 或 LINE 等社群帳號登入的，這個帳號還沒有密碼，所以沒有可以更改的密碼。</p>
      <p>
        想改用電子郵件和密碼登入，可以請我們寄一封設定密碼的信到 <strong>{email}</strong>，依信中的連結設定第一個密碼。
      </p>
      <FormNotice message={done && !form.pending ? (notice ?? null) : null} />
      <FormAlert message={formError ?? null} />
      <button type="submit" className="button button--primary" disabled={form.pending}>
        {form.pending ? "寄送中…" : "寄送設定密碼信"}
      </button>
    </Form>
  );
}
