import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/email-verification";
import { pageMeta } from "~/features/seo/page-meta";
import { useAuth } from "~/features/auth/auth-provider";
import { AuthScreen, FormAlert, FormNotice, useSubmission } from "~/features/auth/auth-form";
import { requestVerificationEmail } from "~/features/auth/auth-client";
import { safeRedirect } from "~/features/auth/redirect-rule";
import { usePublicEnv } from "~/config/use-public-env";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "驗證電子郵件", description: "完成電子郵件驗證" });

/** After sign-up (or a refused sign-in): where the email went, and a way to send it again. */
export default function EmailVerificationScreen() {
  const auth = useAuth();
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get("redirectTo"), usePublicEnv().siteUrl);
  const email = auth.currentUser?.email ?? params.get("email") ?? "";
  const [sent, setSent] = useState(false);
  const { pending, failure, submit } = useSubmission();

  if (auth.currentUser?.emailVerified) {
    return (
      <AuthScreen title="驗證電子郵件" lead="您的電子郵件已完成驗證。">
        <div className="auth-actions">
          <Link className="button button--primary" to={redirectTo}>
            繼續
          </Link>
        </div>
      </AuthScreen>
    );
  }

  const resend = () =>
    void submit(async () => {
      setSent(false);
      if (auth.currentUser) await auth.resendVerification();
      else await requestVerificationEmail(email);
      setSent(true);
    });

  return (
    <AuthScreen
      title="驗證電子郵件"
      lead={email ? `我們已寄送驗證信到 ${email}，請點選信中的連結完成驗證。` : "請點選驗證信中的連結完成驗證。"}
    >
      <FormNotice message={sent ? "已重新寄送驗證信，請查看信箱（也請檢查垃圾郵件匣）。" : null} />
      <FormAlert message={failure?.message ?? null} />
      <div className="auth-actions">
        <button type="button" className="button button--primary" disabled={pending || auth.loading || !email} onClick={resend}>
          {pending ? "寄送中…" : "重新寄送驗證信"}
        </button>
        <Link className="button" to={redirectTo}>
          稍後再驗證
        </Link>
      </div>
    </AuthScreen>
  );
}
