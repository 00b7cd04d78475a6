import { useState } from "react";
import { Form, Link } from "react-router";
import { Field, FormAlert, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref } from "~/features/sign-in/auth-paths";
import { backupCodeSchema, twoStepCodeSchema } from "~/features/sign-in/second-step-schemas";

const trustLabel = "在這個裝置上 30 天內不再詢問（只在自己的裝置上勾選）";

/**
 * `/login/two-step`: the second step of a sign-in by password, email link or social account. The six digits of
 * the authenticator app, or one of the backup codes; either may remember this device for 30 days. POST forms that
 * work without JavaScript.
 */
export function TwoStepScreen() {
  const redirectTo = useRedirectTo();
  const app = useForm(twoStepCodeSchema, "totp");
  const backup = useForm(backupCodeSchema, "backup");
  // Turning to the backup codes puts the code form's last answer (「驗證碼無效」) away: it is about the other form.
  const [setAside, setSetAside] = useState<object | undefined>(undefined);
  const appOutcome = app.outcome && app.outcome !== setAside ? app.outcome : undefined;
  const turnToBackup = () => setSetAside(app.outcome);
  const expired = [app.outcome?.code, backup.outcome?.code].includes("auth/two-step-expired");

  return (
    <AuthScreen title="兩步驟驗證" lead="請開啟手機上的驗證器 App（例如 Google Authenticator），輸入「任務小勇士」顯示的 6 位數驗證碼。">
      <Form method="post" action={app.action} className="auth-form" onSubmit={app.onSubmit} noValidate>
        <input type="hidden" name="intent" value="totp" />
        <FormAlert message={appOutcome?.fieldErrors ? null : (appOutcome?.formError ?? null)} />
        <Field name="code" label="驗證碼" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required
          autoFocus error={app.outcome && !appOutcome ? undefined : app.errors.code} />
        <label className="auth-check">
          <input type="checkbox" name="trustDevice" />
          <span>{trustLabel}</span>
        </label>
        <SubmitButton pending={app.pending} label="驗證並登入" />
      </Form>
      {expired ? (
        <p>
          <Link to={authHref("/login", redirectTo)}>回到登入頁重新登入</Link>
        </p>
      ) : null}
      <details className="auth-details" open={Boolean(backup.outcome)} onToggle={(event) => (event.currentTarget.open ? turnToBackup() : undefined)}>
        <summary>手機不在身邊？改用備用碼</summary>
        <Form method="post" action={backup.action} className="auth-form" onFocus={turnToBackup} onSubmit={(event) => (turnToBackup(), backup.onSubmit(event))} noValidate>
          <input type="hidden" name="intent" value="backup" />
          <p>輸入開啟兩步驟驗證時保存的任何一組備用碼。每組備用碼只能使用一次。</p>
          <FormAlert message={backup.outcome?.fieldErrors ? null : (backup.outcome?.formError ?? null)} />
          <Field name="backupCode" label="備用碼" autoComplete="off" autoCapitalize="none" spellCheck={false} required error={backup.errors.backupCode} />
          <label className="auth-check">
            <input type="checkbox" name="trustDevice" />
            <span>{trustLabel}</span>
          </label>
          <SubmitButton pending={backup.pending} label="使用備用碼登入" />
        </Form>
      </details>
      <div className="auth-links">
        <Link to={authHref("/login", redirectTo)}>改用其他帳號登入</Link>
      </div>
    </AuthScreen>
  );
}
