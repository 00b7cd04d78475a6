import { useState } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/forgot-password";
import { pageMeta } from "~/features/seo/page-meta";
import { useAuth } from "~/features/auth/auth-provider";
import { AuthScreen, Field, FormAlert, FormNotice, emailProblem, useSubmission } from "~/features/auth/auth-form";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "忘記密碼", description: "寄送重設密碼信" });

export default function ForgotPasswordScreen() {
  const auth = useAuth();
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { pending, failure, submit } = useSubmission();

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = emailProblem(email);
    setEmailError(problem);
    if (problem) return;
    void submit(async () => {
      await auth.resetPassword(email.trim());
      setSent(true);
    });
  };

  return (
    <AuthScreen title="忘記密碼" lead="輸入註冊時使用的電子郵件，我們會寄送重設密碼的連結給你。">
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        {/* The same answer whether or not the address has an account. */}
        <FormNotice message={sent ? "如果此電子郵件已註冊，重設密碼信已寄出，請查看信箱。" : null} />
        <FormAlert message={failure?.message ?? null} />
        <Field name="email" label="電子郵件" type="email" autoComplete="email" inputMode="email" required
          value={email} onChange={(event) => setEmail(event.target.value)} error={emailError} />
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? "寄送中…" : "寄送重設密碼信"}
        </button>
      </form>
      <div className="auth-links">
        <Link to="/login">返回登入</Link>
      </div>
    </AuthScreen>
  );
}
