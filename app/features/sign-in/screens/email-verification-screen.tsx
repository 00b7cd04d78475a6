import { Form, Link, useSearchParams } from "react-router";
import { useAuth, BotCheckField } from "~/features/auth";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, NextStep, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { resendVerificationSchema } from "~/features/sign-in/sign-in-schemas";

/**
 * `/email-verification`, after sign-up or a refused sign-in: where the email went and a POST form for a new link.
 * Signed in, the link goes to the account's own address; otherwise the parent types the address (the answer is
 * the same for any address, and the resend is rate-limited).
 */
export function EmailVerificationScreen() {
  const auth = useAuth();
  const [params] = useSearchParams();
  const redirectTo = useRedirectTo();
  const signedInEmail = auth.currentUser && !auth.currentUser.isAnonymous ? auth.currentUser.email : null;
  const form = useForm(resendVerificationSchema);
  const typedEmail = form.outcome?.values?.email ?? params.get("email") ?? "";
  const sent = form.outcome?.done && !form.pending;

  if (auth.currentUser?.emailVerified) {
    return (
      <AuthScreen title="驗證電子郵件" lead="你的電子郵件已完成驗證。">
        <NextStep to={redirectTo}>繼續</NextStep>
      </AuthScreen>
    );
  }

  const shownEmail = signedInEmail ?? typedEmail;
  return (
    <AuthScreen
      title="驗證電子郵件"
      lead={`${params.get("from") === "signup" ? "註冊完成！" : ""}${
        shownEmail ? `我們已寄送驗證信到 ${shownEmail}，請點選信中的連結完成驗證。` : "請點選驗證信中的連結完成驗證。"
      }`}
    >
      <FormNotice
        message={sent ? "如果這個電子郵件還沒有完成驗證，新的驗證信已經寄出，請查看信箱（也請檢查垃圾郵件匣）。" : null}
      />
      <FormAlert message={form.outcome?.formError ?? null} />
      {/* The POST form also works before the page's JavaScript has loaded. */}
      <Form method="post" action={form.action} className="auth-form" onSubmit={signedInEmail ? undefined : form.onSubmit} noValidate>
        <BotCheckField renew={form.outcome} />
        {signedInEmail ? (
          <input type="hidden" name="email" value={signedInEmail} />
        ) : (
          <>
            {/* Not "you are signed out": a page prerendered or sent before the session is known cannot tell. */}
            <p>沒有收到信嗎？請輸入註冊時使用的電子郵件，我們會寄送新的驗證連結。</p>
            <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
              defaultValue={typedEmail} error={form.errors.email} />
          </>
        )}
        <div className="auth-actions">
          <SubmitButton pending={form.pending} label="重新寄送驗證信" pendingLabel="寄送中…" />
          <Link className="button" to={redirectTo}>
            稍後再驗證
          </Link>
        </div>
      </Form>
    </AuthScreen>
  );
}
