import { Form, Link, useSearchParams } from "react-router";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref, emailLinkPath } from "~/features/sign-in/auth-paths";
import { emailLinkRequestSchema as emailLinkSchema } from "~/features/auth/ways-in";
import { z } from "~/lib/zod";
import { BotCheckField } from "~/features/auth";

const tokenOnly = z.object({ token: z.string().min(1) });

/**
 * `/login/email-link`: ask for a sign-in link by email; the mailed link opens this page with its token, and only
 * the button signs in (a mail scanner that opens the link spends nothing). POST forms, no JavaScript needed.
 */
export function EmailLinkScreen() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  return token ? <SignInWithLink token={token} /> : <AskForLink />;
}

function SignInWithLink({ token }: { token: string }) {
  const form = useForm(tokenOnly, "sign-in");
  const redirectTo = useRedirectTo();
  return (
    <AuthScreen title="用電子郵件連結登入" lead="按下「登入」即可登入你的帳號。這個連結只能使用一次，15 分鐘內有效。">
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit}>
        <input type="hidden" name="intent" value="sign-in" />
        <input type="hidden" name="token" value={token} />
        <FormAlert message={form.outcome?.formError ?? null} />
        <SubmitButton pending={form.pending} label="登入" />
      </Form>
      {form.outcome?.formError ? (
        <div className="auth-links">
          <Link to={authHref(emailLinkPath, redirectTo)}>重新寄送登入連結</Link>
        </div>
      ) : null}
    </AuthScreen>
  );
}

function AskForLink() {
  const redirectTo = useRedirectTo();
  const form = useForm(emailLinkSchema, "request");
  const sent = form.outcome?.done && !form.pending;
  return (
    <AuthScreen title="用電子郵件連結登入" lead="不想輸入密碼？輸入你的電子郵件，我們會寄一封附有登入連結的信給你。">
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="intent" value="request" />
        <BotCheckField renew={form.outcome} />
        <FormNotice
          message={sent ? `如果 ${form.outcome?.values?.email ?? "這個電子郵件"} 有註冊帳號，登入連結已經寄出。請在 15 分鐘內開啟信中的連結。` : null}
        />
        <FormAlert message={form.outcome?.fieldErrors ? null : (form.outcome?.formError ?? null)} />
        <Field name="email" label="電子郵件" type="email" autoComplete="username" inputMode="email" required
          defaultValue={form.outcome?.values?.email} error={form.errors.email} />
        <SubmitButton pending={form.pending} label="寄送登入連結" />
      </Form>
      <div className="auth-links">
        <Link to={authHref("/login", redirectTo)}>改用密碼登入</Link>
        <Link to={authHref("/signup", redirectTo)}>註冊</Link>
      </div>
    </AuthScreen>
  );
}
