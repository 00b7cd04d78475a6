import { Form, Link, useSearchParams } from "react-router";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { totpConfirmSchema } from "~/features/sign-in/second-step-schemas";
import type { TwoStepEnrolment, TwoStepOutcome, TwoStepSettings } from "./second-factor-shapes";
import { PageIntro } from "~/features/pages/page-intro";
import { z } from "~/lib/zod";
import { SignInPrompt } from "./sign-in-prompt";
import { AccountFormAlert } from "./recent-sign-in-alert";
import "./account-security.css";

export const twoStepSettingsPath = "/account/two-step";
const passwordOnly = z.object({ password: z.string().default("") });
const codesPassword = z.object({ currentPassword: z.string().default("") });

/**
 * 兩步驟驗證 (ASVS 6.3.3): turn it on (the password, then scan the QR code or type the secret, then confirm with
 * the app's first code; ten backup codes shown once), a new set of backup codes, or off. Every form posts without
 * JavaScript; each change more than 10 minutes after sign-in asks for the password (or a code) first, and where the
 * form has none of those, the confirm-identity step.
 */
export function TwoStepPage(props: TwoStepSettings) {
  const enable = useForm(passwordOnly, "enable");
  const confirm = useForm(totpConfirmSchema, "confirm");
  // A wrong first code shows the same QR code again (the confirm form posts it back).
  const enrolment = ((confirm.outcome ?? enable.outcome) as TwoStepOutcome | undefined)?.enrolment;
  // Turning it on or off ends in a redirect here (`?done=on|off`): the page after it reads the new session.
  const [params] = useSearchParams();
  const done = params.get("done");

  return (
    <main className="page page--narrow">
      <PageIntro
        title="兩步驟驗證"
        lead="開啟後，用密碼、電子郵件連結、手機簡訊或 Google、Facebook、LINE 登入時，還要輸入手機驗證器 App 上的 6 位數驗證碼。就算密碼外洩，別人也登不進你的帳號。"
      />
      {!props.account ? (
        <SignInPrompt id="two-step-sign-in" title="登入後設定兩步驟驗證" text="登入帳號後，就能在這裡開啟或關閉兩步驟驗證。登入完成會自動回到這一頁。" returnTo={twoStepSettingsPath} />
      ) : enrolment && !props.account.enabled ? (
        <Enrolment enrolment={enrolment} form={confirm} />
      ) : props.account.enabled ? (
        <>
          <TurnOff hasPassword={props.account.hasPassword} notice={done === "on" ? "兩步驟驗證已開啟。之後登入時，輸入密碼後還要輸入驗證器 App 的驗證碼。" : null} />
          <NewBackupCodes hasPassword={props.account.hasPassword} />
        </>
      ) : (
        <section className="page-section" aria-labelledby="two-step-state">
          <h2 id="two-step-state">尚未開啟</h2>
          <FormNotice message={done === "off" ? "兩步驟驗證已關閉。" : null} />
          <p>你需要一支裝有驗證器 App 的手機，例如 Google Authenticator、Microsoft Authenticator 或 1Password。</p>
          <Form method="post" className="card auth-form security-form" onSubmit={enable.onSubmit} noValidate>
            <input type="hidden" name="intent" value="enable" />
            <input type="email" name="username" autoComplete="username" value={props.account.email} readOnly hidden />
            <AccountFormAlert outcome={enable.outcome?.fieldErrors ? undefined : enable.outcome} returnTo={twoStepSettingsPath} />
            {props.account.hasPassword ? (
              <Field name="password" label="目前的密碼" type="password" autoComplete="current-password" required error={enable.errors.password} />
            ) : null}
            <SubmitButton pending={enable.pending} label="開始設定" />
          </Form>
        </section>
      )}
    </main>
  );
}

function Enrolment({ enrolment, form }: { enrolment: TwoStepEnrolment; form: ReturnType<typeof useForm> }) {
  return (
    <>
      <section className="page-section" aria-labelledby="two-step-scan">
        <h2 id="two-step-scan">1. 用驗證器 App 掃描 QR 碼</h2>
        <p>在 App 中選「新增帳號」或「＋」，再掃描下面的 QR 碼。</p>
        {/* An SVG made on the server from the otpauth:// address: no script, no request for an image. */}
        <div className="two-step-qr" role="img" aria-label="兩步驟驗證的 QR 碼" dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
        <p>無法掃描時，請在 App 中選「輸入設定金鑰」，輸入這組金鑰（時間型）：</p>
        <p className="two-step-secret">
          <code>{enrolment.secret}</code>
        </p>
      </section>
      <section className="page-section" aria-labelledby="two-step-backup">
        <h2 id="two-step-backup">2. 保存備用碼</h2>
        <p>手機遺失或不在身邊時，可以用備用碼登入。每組只能用一次。請抄下來或列印，放在安全的地方；這些備用碼只會顯示這一次。</p>
        <ol className="two-step-codes" role="list">
          {enrolment.backupCodes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
      </section>
      <section className="page-section" aria-labelledby="two-step-confirm">
        <h2 id="two-step-confirm">3. 輸入 App 顯示的驗證碼</h2>
        <Form method="post" className="card auth-form security-form" onSubmit={form.onSubmit} noValidate>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="totpURI" value={enrolment.totpURI} />
          <input type="hidden" name="backupCodes" value={enrolment.backupCodes.join(" ")} />
          <FormAlert message={form.outcome?.fieldErrors ? null : (form.outcome?.formError ?? null)} />
          <Field name="code" label="驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={form.errors.code} />
          <SubmitButton pending={form.pending} label="確認並開啟" />
        </Form>
      </section>
    </>
  );
}

function TurnOff({ hasPassword, notice }: { hasPassword: boolean; notice: string | null }) {
  const intent = hasPassword ? "disable" : "disable-with-code";
  const form = useForm(hasPassword ? passwordOnly : totpConfirmSchema, intent);
  return (
    <section className="page-section" aria-labelledby="two-step-state">
      <h2 id="two-step-state">已開啟</h2>
      <FormNotice message={notice} />
      <p>登入時，輸入密碼後還要輸入驗證器 App 上的驗證碼。手機不在身邊時，可以用備用碼登入。</p>
      <p>
        <Link to="/account/security">回到帳號安全</Link>
      </p>
      <Form method="post" className="card auth-form security-form" onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="intent" value={intent} />
        <p>關閉後，只要密碼就能登入你的帳號。{hasPassword ? "請輸入目前的密碼確認。" : "請輸入驗證器 App 上的驗證碼確認。"}</p>
        <AccountFormAlert outcome={form.outcome?.fieldErrors ? undefined : form.outcome} returnTo={twoStepSettingsPath} />
        {hasPassword ? (
          <Field name="password" label="目前的密碼" type="password" autoComplete="current-password" required error={form.errors.password} />
        ) : (
          <Field name="code" label="驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={form.errors.code} />
        )}
        <SubmitButton pending={form.pending} label="關閉兩步驟驗證" />
      </Form>
    </section>
  );
}

/** A new set of ten backup codes (when they are used up or lost): the old set stops working at once. */
function NewBackupCodes({ hasPassword }: { hasPassword: boolean }) {
  const form = useForm(codesPassword, "backup-codes");
  const backupCodes = (form.outcome as TwoStepOutcome | undefined)?.backupCodes;
  return (
    <section className="page-section" aria-labelledby="two-step-new-codes">
      <h2 id="two-step-new-codes">備用碼</h2>
      {backupCodes ? (
        <>
          <FormNotice message="已產生 10 組新的備用碼，舊的備用碼已全部失效。" />
          <p>請抄下來或列印，放在安全的地方；這些備用碼只會顯示這一次，每組只能用一次。</p>
          <ol className="two-step-codes" role="list">
            {backupCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p>備用碼用完或遺失時，可以產生一組新的 10 組備用碼，舊的備用碼會同時失效。</p>
      )}
      <Form method="post" className="card auth-form security-form" onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="intent" value="backup-codes" />
        <AccountFormAlert outcome={form.outcome?.fieldErrors ? undefined : form.outcome} returnTo={twoStepSettingsPath} />
        {hasPassword ? (
          <Field name="currentPassword" label="密碼" type="password" autoComplete="current-password" required error={form.errors.currentPassword} />
        ) : null}
        <SubmitButton pending={form.pending} label="產生新的備用碼" />
      </Form>
    </section>
  );
}
