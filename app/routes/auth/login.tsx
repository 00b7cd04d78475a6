import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { pageMeta } from "~/features/seo/page-meta";
import { useAuth } from "~/features/auth/auth-provider";
import { AuthScreen, Field, FormAlert, FormNotice, emailProblem, useSubmission } from "~/features/auth/auth-form";
import { SocialButtons } from "~/features/auth/social-buttons";
import { safeRedirect } from "~/features/auth/redirect-rule";
import { usePublicEnv } from "~/config/use-public-env";
import { displayNameOf } from "~/features/shell/display-name";
import { getAuthService } from "~/features/auth/auth-service.server";
import { configuredSocialProviders } from "~/features/auth/social-providers.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "登入", description: "登入任務小勇士帳號" });

export function loader() {
  return { providers: configuredSocialProviders(getAuthService()) };
}

export default function LoginScreen({ loaderData }: Route.ComponentProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get("redirectTo"), usePublicEnv().siteUrl);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const { pending, failure, submit } = useSubmission();
  const withRedirect = (path: string) => (redirectTo === "/" ? path : `${path}?redirectTo=${encodeURIComponent(redirectTo)}`);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const errors = { email: emailProblem(email), password: password ? null : "請輸入密碼" };
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    void submit(async () => {
      await auth.login(email.trim(), password);
      navigate(redirectTo, { replace: true });
    });
  };
  const signInWith = (action: () => Promise<unknown>) =>
    void submit(async () => {
      await action();
      navigate(redirectTo, { replace: true });
    });

  if (auth.currentUser && !auth.currentUser.isAnonymous && !pending) {
    const name = displayNameOf(auth.currentUser);
    return (
      <AuthScreen title="登入" lead={`您已登入為 ${name}。`}>
        <div className="auth-actions">
          <Link className="button button--primary" to={redirectTo}>
            繼續
          </Link>
          <button type="button" className="button" onClick={() => void auth.logout().catch(() => {})}>
            登出
          </button>
        </div>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen title="登入" lead="歡迎回來！登入後繼續陪孩子一起完成任務。">
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormNotice message={params.get("reset") === "done" ? "密碼已重設，請使用新密碼登入。" : null} />
        <FormAlert message={failure?.message ?? null} />
        {failure?.code === "email-not-verified" ? (
          <p>
            <Link to={`/email-verification?email=${encodeURIComponent(email.trim())}`}>重新寄送驗證信</Link>
          </p>
        ) : null}
        <Field name="email" label="電子郵件" type="email" autoComplete="username" inputMode="email" required
          value={email} onChange={(event) => setEmail(event.target.value)} error={fieldErrors.email} />
        <Field name="password" label="密碼" type="password" autoComplete="current-password" required
          value={password} onChange={(event) => setPassword(event.target.value)} error={fieldErrors.password} />
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? "處理中…" : "登入"}
        </button>
      </form>
      <div className="auth-links">
        <Link to="/forgot-password">忘記密碼？</Link>
        <Link to={withRedirect("/signup")}>註冊</Link>
      </div>
      <p className="auth-divider">或</p>
      <SocialButtons providers={loaderData.providers} disabled={pending} onSelect={(provider) => signInWith(() => auth.loginWithSocial(provider))} />
      <div className="auth-actions">
        <button type="button" className="button" disabled={pending} onClick={() => signInWith(auth.loginAsGuest)}>
          以訪客身分試用
        </button>
      </div>
    </AuthScreen>
  );
}
