import { Form, Link } from "react-router";
import { ResultNotice } from "~/components/result-notice";
import type { AccountDeletionContent } from "~content/types";
import { useForm } from "~/components/form/form";
import { authHref } from "~/features/sign-in/auth-paths";
import { accountDeletionSchema } from "./account-schemas";

/** Who is signed in, as the page's loader read it on the server (null for a visitor). */
export interface DeletionAccount {
  label: string;
  hasPassword: boolean;
}

/**
 * Deletion by the signed-in user: a POST form (it works before the JavaScript arrives) with the confirmation word
 * and, where the account has one, the password; the route action deletes the user, their sessions and their rows.
 */
export function SelfServiceDeletion({
  content: { title, text, signedInText, confirmWord },
  account,
}: {
  content: AccountDeletionContent["selfService"];
  account: DeletionAccount | null;
}) {
  const form = useForm(accountDeletionSchema(confirmWord));
  const error = form.outcome?.formError ?? form.errors.confirm ?? form.errors.password ?? null;

  let body: React.ReactNode;
  if (!account) {
    body = (
      <>
        <p>{text}</p>
        <p>
          <Link className="button button--primary" to={authHref("/login", "/account-deletion")}>
            登入
          </Link>
        </p>
      </>
    );
  } else {
    body = (
      <Form method="post" className="card deletion-form" onSubmit={form.onSubmit} noValidate>
        <p>
          目前登入的帳號：<strong>{account.label}</strong>
        </p>
        <p>{signedInText}</p>
        <label className="field">
          <span className="field__label">請輸入「{confirmWord}」</span>
          <input name="confirm" autoComplete="off" required />
        </label>
        {account.hasPassword && (
          <label className="field">
            <span className="field__label">密碼</span>
            <input name="password" type="password" autoComplete="current-password" aria-describedby="deletion-password-hint" />
            <span id="deletion-password-hint" className="field__hint">
              以社群帳號登入、沒有設定密碼的帳號請留白。
            </span>
          </label>
        )}
        {error && (
          <ResultNotice key={error} tone="error" className="notice notice--error">
            {error}
          </ResultNotice>
        )}
        <button type="submit" className="button button--danger" disabled={form.pending}>
          {form.pending ? "刪除中…" : "永久刪除我的帳號"}
        </button>
      </Form>
    );
  }

  return (
    <section className="page-section" aria-labelledby="deletion-self-service">
      <h2 id="deletion-self-service">{title}</h2>
      {body}
    </section>
  );
}
