import { useState } from "react";
import { Link } from "react-router";
import { unknownErrorMessage } from "~/features/auth/auth-errors";
import { useAuth } from "~/features/auth/auth-provider";
import { useDeleteAccount } from "~/features/auth/delete-account";
import type { AccountDeletionContent } from "~content/types";

type Status = "idle" | "deleting" | "deleted";

/**
 * Deletion by the signed-in user: type the confirmation word (and the password where the account has one);
 * the sign-in layer deletes the user, their sessions and their rows, and the page is signed out.
 */
export function SelfServiceDeletion({ title, text, signedInText, confirmWord, done }: AccountDeletionContent["selfService"]) {
  const { currentUser, loading } = useAuth();
  const deleteAccount = useDeleteAccount();
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (String(form.get("confirm") ?? "").trim() !== confirmWord) {
      setError(`請輸入「${confirmWord}」確認刪除。`);
      return;
    }
    const password = String(form.get("password") ?? "");
    setError(null);
    setStatus("deleting");
    try {
      await deleteAccount(password ? { password } : {});
      setStatus("deleted");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : unknownErrorMessage);
      setStatus("idle");
    }
  }

  let body: React.ReactNode;
  if (status === "deleted") {
    body = (
      <p role="status" className="notice notice--done">
        {done}
      </p>
    );
  } else if (loading) {
    body = <p className="page-loading">載入中...</p>;
  } else if (!currentUser) {
    body = (
      <>
        <p>{text}</p>
        <p>
          <Link className="button button--primary" to="/login?redirectTo=/account-deletion">
            登入
          </Link>
        </p>
      </>
    );
  } else {
    const hasPasswordField = !currentUser.isAnonymous;
    body = (
      <form className="card deletion-form" onSubmit={submit} noValidate>
        <p>
          目前登入的帳號：<strong>{currentUser.email ?? currentUser.displayName ?? "訪客用戶"}</strong>
        </p>
        <p>{signedInText}</p>
        <label className="field">
          <span className="field__label">請輸入「{confirmWord}」</span>
          <input name="confirm" autoComplete="off" required />
        </label>
        {hasPasswordField && (
          <label className="field">
            <span className="field__label">密碼</span>
            <input name="password" type="password" autoComplete="current-password" aria-describedby="deletion-password-hint" />
            <span id="deletion-password-hint" className="field__hint">
              以社群帳號登入、沒有設定密碼的帳號請留白。
            </span>
          </label>
        )}
        {error && (
          <p role="alert" className="notice notice--error">
            {error}
          </p>
        )}
        <button type="submit" className="button button--danger" disabled={status === "deleting"}>
          {status === "deleting" ? "刪除中..." : "永久刪除我的帳號"}
        </button>
      </form>
    );
  }

  return (
    <section className="page-section" aria-labelledby="deletion-self-service">
      <h2 id="deletion-self-service">{title}</h2>
      {body}
    </section>
  );
}
