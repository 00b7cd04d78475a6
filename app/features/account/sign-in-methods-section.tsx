import { useState } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { Field, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import { PasswordRulesList } from "~/features/sign-in/password-rules-list";
import { type PasswordPolicy, methodLabels, type SignInMethods } from "~/features/auth";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import { setPasswordSchema } from "./account-forms";
import { AccountFormAlert } from "./recent-sign-in-alert";
import { PhoneNumberForms } from "./phone-number-forms";

/**
 * 登入方式: the account's ways in (its phone number too: phone-number-forms.tsx), each with 移除 (never the last way in, passkeys counted: the server refuses it
 * too), the site's other providers with 連結 (the provider's pages, then back here), and for an account without a
 * password a form that sets its first one.
 */
export function SignInMethodsSection({ methods, hasEmail, phoneNumber, policy, returnTo }: { methods: SignInMethods; hasEmail: boolean; phoneNumber: string | null; policy: PasswordPolicy; returnTo: string }) {
  const answered = useActionData() as FormResult | undefined;
  const outcome = answered?.intent === "remove-method" || answered?.intent === "link-method" ? answered : undefined;
  // A first password, once set, takes its form away: its notice shows here.
  const passwordSet = answered?.intent === "set-password" && answered.done ? answered.notice : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData : undefined;
  const only = methods.methods.length + methods.passkeys + (phoneNumber ? 1 : 0) === 1;
  const hasPassword = methods.methods.some((method) => method.provider === "password");

  return (
    <section className="page-section" aria-labelledby="sign-in-methods">
      <h2 id="sign-in-methods">登入方式</h2>
      <p>你可以用以下任何一種方式登入這個帳號。至少要保留一種。</p>
      {methods.passkeys > 0 ? (
        <p>
          另有 {methods.passkeys} 把<Link to="/account/passkeys">密碼金鑰</Link>也能登入這個帳號。
        </p>
      ) : null}
      <FormNotice message={busy ? null : ((outcome?.done ? outcome.notice : passwordSet) ?? null)} />
      <AccountFormAlert outcome={outcome} returnTo={returnTo} />
      <ul className="method-list">
        {methods.methods.map((method) => (
          <li key={method.id} className="card method">
            <div id={`method-${method.id}`}>
              <p className="method__name">{methodLabels[method.provider]}</p>
              <p className="method__since">
                加入於 <time dateTime={method.linkedAt}>{formatTaiwanDate(method.linkedAt)}</time>
              </p>
            </div>
            {only ? (
              <p className="method__note">這是唯一的登入方式，無法移除。</p>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-method" />
                <input type="hidden" name="id" value={method.id} />
                <button type="submit" className="button" aria-describedby={`method-${method.id}`} disabled={busy?.get("id") === method.id}>
                  {busy?.get("id") === method.id ? "移除中…" : "移除"}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <PhoneNumberForms phoneNumber={phoneNumber} only={only} returnTo={returnTo} />
      {methods.linkable.length > 0 ? (
        <Form method="post" className="method-links" reloadDocument>
          <input type="hidden" name="intent" value="link-method" />
          {methods.linkable.map((provider) => (
            <button key={provider} type="submit" name="provider" value={provider} className="button">
              {`連結${/^[A-Za-z]/.test(methodLabels[provider]) ? " " : ""}${methodLabels[provider]}`}
            </button>
          ))}
        </Form>
      ) : null}
      {hasPassword ? null : hasEmail ? (
        <SetPasswordForm policy={policy} waysIn={waysInNow(methods, phoneNumber)} returnTo={returnTo} />
      ) : (
        <p>這個帳號目前用{waysInNow(methods, phoneNumber)}登入。設定電子郵件後，也可以設定密碼，用電子郵件和密碼登入。</p>
      )}
    </section>
  );
}

/** The account's ways in today, in words: 「手機號碼、Google」, 「密碼金鑰」. */
function waysInNow(methods: SignInMethods, phoneNumber: string | null): string {
  const ways = [
    ...(phoneNumber ? ["手機號碼"] : []),
    ...methods.methods.map((method) => methodLabels[method.provider]),
    ...(methods.passkeys > 0 ? ["密碼金鑰"] : []),
  ];
  return ways.join("、") || "其他方式";
}

function SetPasswordForm({ policy, waysIn, returnTo }: { policy: PasswordPolicy; waysIn: string; returnTo: string }) {
  const form = useForm(setPasswordSchema(policy), "set-password");
  const [password, setPassword] = useState("");
  return (
    <Form method="post" className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
      <h3>設定密碼</h3>
      <p>這個帳號目前用{waysIn}登入。設定密碼後，也可以用電子郵件和密碼登入。</p>
      <input type="hidden" name="intent" value="set-password" />
      <AccountFormAlert outcome={form.outcome} returnTo={returnTo} />
      <Field name="password" label="密碼" type="password" autoComplete="new-password" required minLength={policy.minLength} maxLength={policy.maxLength}
        onChange={(event) => setPassword(event.target.value)} error={form.errors.password} hint={<PasswordRulesList password={password} policy={policy} />} />
      <Field name="confirm" label="確認密碼" type="password" autoComplete="new-password" required error={form.errors.confirm} />
      <SubmitButton pending={form.pending} label="設定密碼" pendingLabel="設定中…" />
    </Form>
  );
}
