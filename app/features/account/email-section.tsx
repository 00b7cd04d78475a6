import { Form, useSearchParams } from "react-router";
import { Field, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { changeEmailSchema } from "./account-forms";
import { AccountFormAlert } from "./recent-sign-in-alert";

/**
 * 電子郵件: the current address, and a form for a new one. The new address gets a confirmation link and is used
 * only once that link is opened; the old address is told when it happens. This browser stays signed in.
 */
export function EmailSection({ email, emailVerified, returnTo }: { email: string | null; emailVerified: boolean; returnTo: string }) {
  const form = useForm(changeEmailSchema, "change-email");
  const { done, notice } = form.outcome ?? {};
  // The typed address survives 確認身分: it rides in the way back (`?newEmail=`) and fills the field again.
  const [searchParams] = useSearchParams();
  const typed = form.outcome?.values?.newEmail ?? searchParams.get("newEmail") ?? "";
  const back = typed ? `${returnTo}?${new URLSearchParams({ newEmail: typed })}` : returnTo;
  return (
    <section className="page-section" aria-labelledby="email">
      <h2 id="email">電子郵件</h2>
      {email ? (
        <p>
          目前的電子郵件：<strong>{email}</strong>
          {emailVerified ? "（已驗證）" : "（尚未驗證）"}
        </p>
      ) : (
        <p>
          <strong>尚未設定電子郵件</strong>。加入電子郵件後，可以收到安全通知，也能用電子郵件登入。
        </p>
      )}
      <Form method="post" className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="intent" value="change-email" />
        <FormNotice message={done && !form.pending ? (notice ?? null) : null} />
        <AccountFormAlert outcome={form.outcome} returnTo={back} />
        <Field name="newEmail" label={email ? "新的電子郵件" : "電子郵件"} type="email" autoComplete="email" required
          defaultValue={done ? "" : typed} error={form.errors.newEmail}
          hint={<p className="field__hint">{email ? "我們會寄確認信到新的地址，開啟信中的連結後才會改用它，並通知目前的地址。" : "我們會寄確認信到這個地址，開啟信中的連結後才會加入帳號。"}</p>} />
        <SubmitButton pending={form.pending} label="寄送確認信" pendingLabel="寄送中…" />
      </Form>
    </section>
  );
}
