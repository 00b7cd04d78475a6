import { Form, Link } from "react-router";
import { ResultNotice } from "~/components/result-notice";
import type { AccountDeletionContent } from "~content/types";
import { useForm } from "~/components/form/form";
import { authHref } from "~/features/sign-in/auth-paths";
import { accountDeletionSchema } from "./account-schemas";
import { confirmIdentityHref } from "./recent-sign-in-alert";

/** Who is signed in, as the page's loader read it on the server (null for a visitor). */
export interface DeletionAccount {
  label: string;
  hasPassword: boolean;
  /** What goes with the account besides the list above: its phone number, passkeys and family, in words. */
  goes: string[];
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
        {account.goes.length > 0 ? (
          <>
            <p>這個帳號還有這些也會一起刪除：</p>
            <ul className="deletion-goes">
              {account.goes.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        ) : null}
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
        {form.outcome?.code === "auth/requires-recent-login" && (
          <p>
            <Link className="button" to={confirmIdentityHref("/account-deletion")}>
              確認身分
            </Link>
          </p>
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
