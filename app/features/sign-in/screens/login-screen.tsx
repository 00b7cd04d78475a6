import { Form, Link, useNavigate, useSearchParams } from "react-router";
import { displayNameOf, useAuth, SocialButtons, AuthError, type SocialProvider, BotCheckField } from "~/features/auth";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, SignedInScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref, emailLinkPath, isHostPath, twoStepPath } from "~/features/sign-in/auth-paths";
import { PasskeySignIn } from "~/features/sign-in/passkey-sign-in";
import { loginSchema } from "~/features/sign-in/sign-in-schemas";
import { useCallback, useState } from "react";

/** `/login`: a POST form (works before the JavaScript arrives), social pop-ups, guest sign-in and sign-out. */
export function LoginScreen({ providers }: { providers: SocialProvider[] }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = useRedirectTo();
  const form = useForm(loginSchema);
  const [socialError, setSocialError] = useState<AuthError | null>(null);
  const [socialPending, setSocialPending] = useState(false);
  const pending = form.pending || socialPending;
  const failure = socialError ? { message: socialError.message, code: socialError.code } : { message: form.outcome?.formError, code: form.outcome?.code };

  const signInWith = (provider: SocialProvider) => {
    setSocialError(null);
    setSocialPending(true);
    auth
      .loginWithSocial(provider)
      .then(() => (isHostPath(redirectTo) ? window.location.assign(redirectTo) : navigate(redirectTo, { replace: true })))
      .catch((error: unknown) => {
        // The account has two-step sign-in: the pop-up signed nobody in, the code page finishes the sign-in.
        if (error instanceof AuthError && error.code === "auth/two-step-required") return navigate(authHref(twoStepPath, redirectTo));
        setSocialError(error instanceof AuthError ? error : new AuthError("auth/internal-error"));
      })
      .finally(() => setSocialPending(false));
  };

  // A full page load: every part of the site (the header's user menu too) sees the new session at once.
  const passkeySignedIn = useCallback(() => window.location.assign(redirectTo), [redirectTo]);

  if (auth.currentUser && !auth.currentUser.isAnonymous && !pending) {
    return <SignedInScreen title="登入" lead={`你目前以「${displayNameOf(auth.currentUser)}」登入。`} redirectTo={redirectTo} />;
  }

  return (
    <AuthScreen title="登入" lead="歡迎回來！登入後繼續陪孩子一起完成任務。">
      <Form method="post" action={form.action} className="auth-form" onSubmit={form.onSubmit} noValidate>
        <FormNotice message={params.get("reset") === "done" ? "密碼已重設，請使用新密碼登入。" : null} />
        <FormAlert message={failure.message ?? null} />
        {failure.code === "email-not-verified" ? (
          <p>
            <Link to={authHref("/email-verification", redirectTo)}>重新寄送驗證信</Link>
          </p>
        ) : null}
        <Field name="email" label="電子郵件" type="email" autoComplete="username webauthn" inputMode="email" required
          defaultValue={form.outcome?.values?.email} error={form.errors.email} />
        <Field name="password" label="密碼" type="password" autoComplete="current-password" required error={form.errors.password} />
        <SubmitButton pending={pending} label="登入" />
      </Form>
      <div className="auth-links">
        <Link to="/forgot-password">忘記密碼？</Link>
        <Link to={authHref(emailLinkPath, redirectTo)}>用電子郵件連結登入</Link>
        <Link to={authHref("/login/email-code", redirectTo)}>用電子郵件驗證碼登入</Link>
        <Link to={authHref("/login/phone", redirectTo)}>用手機號碼登入</Link>
        <Link to={authHref("/signup", redirectTo)}>註冊</Link>
      </div>
      <p className="auth-divider">或</p>
      <PasskeySignIn onSignedIn={passkeySignedIn} disabled={pending} />
      <SocialButtons providers={providers} disabled={pending} onSelect={signInWith} />
      <Form method="post" action={form.action} className="auth-actions">
        <BotCheckField renew={form.outcome} />
        <button type="submit" name="intent" value="guest" className="button" disabled={pending}>
          以訪客身分試用
        </button>
      </Form>
    </AuthScreen>
  );
}
