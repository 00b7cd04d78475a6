import { useState } from "react";
import { useScripted } from "~/components/use-scripted";
import { Form, useSearchParams } from "react-router";
import { Field, FormAlert, SubmitButton, useForm, useOwnAddress } from "~/components/form/form";
import { AuthError, methodLabels, type SocialProvider, authError } from "~/features/auth";
import { totpConfirmSchema } from "~/features/sign-in/second-step-schemas";
import { safeRedirect } from "~/lib/redirect-rule";
import { PageIntro } from "~/features/pages/page-intro";
import { z } from "~/lib/zod";
import { SignInPrompt } from "./sign-in-prompt";
import { confirmIdentityPath } from "./recent-sign-in-alert";
import "./account-security.css";

const passwordSchema = z.object({ password: z.string().default("").pipe(z.string().min(1, "請輸入密碼")) });

export interface ConfirmIdentity {
  account: { email: string; hasPassword: boolean; twoStep: boolean; passkeys: boolean; providers: SocialProvider[] } | null;
  /** The registered app that asked for a fresh sign-in (max_age, prompt=login), or null. */
  appName?: string | null;
}

/**
 * 確認身分 (/account/confirm-identity): the one step the recent-sign-in guard asks for. The password, a two-step
 * code, a passkey, or a new sign-in through one of the account's providers; each makes the session recent again and
 * returns to the page the change was asked on (`redirectTo`). Plain POST forms that work without JavaScript, but the
 * passkey (the browser's WebAuthn API needs a script).
 * With `proof=two-step` an app asked for a two-step sign-in (`acr_values`, decision 190), or the operator console
 * asks for one (its step-up): only the proofs that make one are offered, a code or a passkey (the password or a
 * social account would bring the parent back here).
 */
export function ConfirmIdentityPage({ account, appName }: ConfirmIdentity) {
  const form = useForm(passwordSchema, undefined);
  const action = useOwnAddress();
  const [searchParams] = useSearchParams();
  const secondStepOnly = searchParams.get("proof") === "two-step";
  return (
    <main className="page page--narrow">
      {secondStepOnly ? (
        <PageIntro title="兩步驟驗證" lead="接下來要做的事需要經過兩步驟驗證的登入：請輸入驗證器 App 上的驗證碼，或使用密碼金鑰。" />
      ) : appName ? (
        <PageIntro title="確認身分" lead={`『${appName}』請你再確認一次身分。`} />
      ) : (
        <PageIntro title="確認身分" lead="距離上次登入已超過 10 分鐘。變更電子郵件、密碼、登入方式、密碼金鑰、兩步驟驗證或刪除帳號前，請先確認是你本人。" />
      )}
      {account ? (
        <>
          {account.hasPassword && !secondStepOnly ? (
            <Form method="post" action={action} className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
              <input type="hidden" name="intent" value="password" />
              <input type="email" name="username" autoComplete="username" value={account.email} readOnly hidden />
              <FormAlert message={form.outcome?.fieldErrors ? null : (form.outcome?.formError ?? null)} />
              <Field name="password" label="密碼" type="password" autoComplete="current-password" required error={form.errors.password} />
              <SubmitButton pending={form.pending} label="確認" pendingLabel="確認中…" />
            </Form>
          ) : null}
          {account.twoStep ? <CodeConfirmation /> : null}
          {account.passkeys ? <PasskeyConfirmation /> : null}
          {account.providers.length > 0 && !secondStepOnly ? (
            <Form method="post" action={action} className="card account-form" reloadDocument>
              <input type="hidden" name="intent" value="provider" />
              <p>{account.hasPassword ? "或是重新用社群帳號登入：" : "請重新用你的社群帳號登入："}</p>
              <p className="start-links">
                {account.providers.map((provider) => (
                  <button key={provider} type="submit" name="provider" value={provider} className="button">
                    用 {methodLabels[provider]} 重新登入
                  </button>
                ))}
              </p>
            </Form>
          ) : null}
        </>
      ) : (
        <SignInPrompt id="confirm-sign-in" title="請先登入" text="登入後就能繼續剛才的變更。" returnTo={confirmIdentityPath} />
      )}
    </main>
  );
}

/** A code from the authenticator app (two-step sign-in on): a right one renews the session. */
function CodeConfirmation() {
  const form = useForm(totpConfirmSchema, "code");
  const action = useOwnAddress();
  return (
    <Form method="post" action={action} className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
      <input type="hidden" name="intent" value="code" />
      <p>輸入驗證器 App 上的驗證碼確認：</p>
      <FormAlert message={form.outcome?.fieldErrors ? null : (form.outcome?.formError ?? null)} />
      <Field name="code" label="驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={form.errors.code} />
      <SubmitButton pending={form.pending} label="用驗證碼確認" pendingLabel="確認中…" />
    </Form>
  );
}

/**
 * A passkey of the account: the browser signs in with it anew (a new session), then goes back to the change. The
 * button is in the server's HTML too, disabled until the page runs JavaScript, so nothing moves when it does.
 */
function PasskeyConfirmation() {
  const [params] = useSearchParams();
  const scripted = useScripted();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    setPending(true);
    setError(null);
    void import("~/features/sign-in/passkey-client")
      .then((client) => client.signInWithPasskey())
      .then(() => window.location.assign(safeRedirect(params.get("redirectTo"), window.location.origin, "/account")))
      .catch((failure: unknown) => {
        setError((failure instanceof AuthError ? failure : authError("auth/invalid-passkey")).message);
        setPending(false);
      });
  };
  return (
    <div className="card account-form">
      <p>用這個帳號的密碼金鑰確認：</p>
      <FormAlert message={error} />
      <button type="button" className="button" onClick={confirm} disabled={!scripted || pending}>
        {pending ? "等待裝置確認…" : "用密碼金鑰確認"}
      </button>
      <noscript>
        <p>用密碼金鑰確認需要開啟瀏覽器的 JavaScript。</p>
      </noscript>
    </div>
  );
}
