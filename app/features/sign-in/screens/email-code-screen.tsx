import { Form, Link } from "react-router";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref, emailLinkPath } from "~/features/sign-in/auth-paths";
import { emailCodeRequestSchema, emailCodeSchema } from "~/features/auth/ways-in";
import { BotCheckField } from "~/features/auth";

/**
 * `/login/email-code`: an email address, then the 6-digit code mailed to it. Only an existing account gets a code;
 * the screen says the same for any address, so it tells no one who has an account. POST forms, no JavaScript needed.
 */
export function EmailCodeScreen() {
  const redirectTo = useRedirectTo();
  const send = useForm(emailCodeRequestSchema, "send");
  const verify = useForm(emailCodeSchema, "verify");
  const email = verify.outcome?.values?.email ?? (send.outcome?.done ? send.outcome.values?.email : undefined);
  return (
    <AuthScreen title="用電子郵件驗證碼登入" lead="不想輸入密碼？輸入你的電子郵件，我們會寄一組 6 位數驗證碼給你，輸入驗證碼就能登入。">
      {email ? (
        <Form method="post" action={verify.action} className="auth-form" onSubmit={verify.onSubmit} noValidate>
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <input type="hidden" name="email" value={email} />
          <FormNotice message={send.outcome?.done && !send.pending ? `如果 ${email} 有註冊帳號，驗證碼已經寄出，10 分鐘內有效。` : null} />
          <FormAlert message={verify.outcome?.fieldErrors ? null : (verify.outcome?.formError ?? null)} />
          <Field name="code" label="電子郵件驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={verify.errors.code} />
          <SubmitButton pending={verify.pending} label="登入" />
        </Form>
      ) : null}
      <Form method="post" action={send.action} className="auth-form" onSubmit={send.onSubmit} noValidate>
        <input type="hidden" name="intent" value="send" />
        <BotCheckField renew={send.outcome} />
        <FormAlert message={send.outcome?.fieldErrors ? null : (send.outcome?.formError ?? null)} />
        <Field name="email" label="電子郵件" type="email" autoComplete="username" inputMode="email" required
          defaultValue={email ?? send.outcome?.values?.email} error={send.errors.email} />
        <SubmitButton pending={send.pending} label={email ? "重新寄送驗證碼" : "寄送驗證碼"} />
      </Form>
      <div className="auth-links">
        <Link to={authHref("/login", redirectTo)}>改用密碼登入</Link>
        <Link to={authHref(emailLinkPath, redirectTo)}>用電子郵件連結登入</Link>
      </div>
    </AuthScreen>
  );
}
