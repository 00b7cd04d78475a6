import { Form, Link } from "react-router";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen } from "~/features/sign-in/sign-in-screen";
import { forgotPasswordSchema } from "~/features/sign-in/sign-in-schemas";
import { BotCheckField } from "~/features/auth";

/** `/forgot-password`: one POST form; the answer is the same whether or not the address has an account. */
export function ForgotPasswordScreen() {
  const form = useForm(forgotPasswordSchema);
  return (
    <AuthScreen title="忘記密碼" lead="輸入註冊時使用的電子郵件，我們會寄送重設密碼的連結給你。">
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit} noValidate>
        <FormNotice message={form.outcome?.done && !form.pending ? "如果此電子郵件已註冊，重設密碼信已寄出，請查看信箱。" : null} />
        <FormAlert message={form.outcome?.formError ?? null} />
        <BotCheckField renew={form.outcome} />
        <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
          defaultValue={form.outcome?.values?.email} error={form.errors.email} />
        <SubmitButton pending={form.pending} label="寄送重設密碼信" pendingLabel="寄送中…" />
      </Form>
      <div className="auth-links">
        <Link to="/login">返回登入</Link>
      </div>
    </AuthScreen>
  );
}
