import { useState } from "react";
import { Form, Link } from "react-router";
import { Field, FormAlert, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, NextStep } from "~/features/sign-in/sign-in-screen";
import { resetPasswordSchema } from "~/features/sign-in/sign-in-schemas";
import { useLinkParams } from "~/features/sign-in/link-params";
import { PasswordRulesList } from "~/features/sign-in/password-rules-list";
import type { PasswordPolicy } from "~/features/auth";

/** `/reset-password` (target of the reset link): the new password twice, then back to /login. */
export function ResetPasswordScreen({ policy }: { policy: PasswordPolicy }) {
  const { token } = useLinkParams(["token"]);
  const form = useForm(resetPasswordSchema(policy));
  const [password, setPassword] = useState("");
  const failure = form.outcome?.formError ?? form.errors.token ?? null;

  if (!token) {
    return (
      <AuthScreen title="重設密碼" lead="這個重設連結不完整，請重新申請重設密碼信。">
        <NextStep to="/forgot-password">重新申請</NextStep>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen title="重設密碼" lead="請設定新的密碼。">
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit} noValidate>
        <FormAlert message={failure} />
        {form.outcome?.code === "auth/invalid-action-code" ? (
          <p>
            <Link to="/forgot-password">重新申請重設密碼信</Link>
          </p>
        ) : null}
        <input type="hidden" name="token" value={token} />
        <Field name="password" label="新密碼" type="password" autoComplete="new-password" required
          onChange={(event) => setPassword(event.target.value)} error={form.errors.password}
          hint={<PasswordRulesList password={password} policy={policy} />} />
        <Field name="confirm" label="確認新密碼" type="password" autoComplete="new-password" required error={form.errors.confirm} />
        <SubmitButton pending={form.pending} label="重設密碼" />
      </Form>
    </AuthScreen>
  );
}
