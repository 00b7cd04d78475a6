import { Form } from "react-router";
import { Field, FormAlert, SubmitButton, useForm, useOwnAddress } from "~/components/form/form";
import type { SocialProvider } from "~/features/auth/auth-client";
import { methodLabels } from "~/features/auth/sign-in-method-types";
import { PageIntro } from "~/features/pages/page-intro";
import { z } from "~/lib/zod";
import { SignInPrompt } from "./sign-in-prompt";
import { confirmIdentityPath } from "./recent-sign-in-alert";
import "./account-security.css";

const passwordSchema = z.object({ password: z.string().default("").pipe(z.string().min(1, "請輸入密碼")) });

export interface ConfirmIdentity {
  account: { email: string; hasPassword: boolean; providers: SocialProvider[] } | null;
}

/**
 * 確認身分 (/account/confirm-identity): the one step the recent-sign-in guard asks for. The password, or a new
 * sign-in through one of the account's providers; either makes the session recent again and returns to the page
 * the change was asked on (`redirectTo`). Plain POST forms: they work without JavaScript.
 */
export function ConfirmIdentityPage({ account }: ConfirmIdentity) {
  const form = useForm(passwordSchema, undefined);
  const action = useOwnAddress();
  return (
    <main className="page page--narrow">
      <PageIntro title="確認身分" lead="距離上次登入已超過 10 分鐘。變更電子郵件、密碼、登入方式或刪除帳號前，請先確認是你本人。" />
      {account ? (
        <>
          {account.hasPassword ? (
            <Form method="post" action={action} className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
              <input type="hidden" name="intent" value="password" />
              <input type="email" name="username" autoComplete="username" value={account.email} readOnly hidden />
              <FormAlert message={form.outcome?.fieldErrors ? null : (form.outcome?.formError ?? null)} />
              <Field name="password" label="密碼" type="password" autoComplete="current-password" required error={form.errors.password} />
              <SubmitButton pending={form.pending} label="確認" pendingLabel="確認中…" />
            </Form>
          ) : null}
          {account.providers.length > 0 ? (
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
