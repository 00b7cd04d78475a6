import { Form, Link } from "react-router";
import { Field, FormAlert, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { AuthScreen, useRedirectTo } from "~/features/sign-in/sign-in-screen";
import { authHref } from "~/features/sign-in/auth-paths";
import { phoneCodeSchema, phoneSchema } from "~/features/auth/ways-in";
import { botCheckWaitingLabel, useBotCheck } from "~/features/auth";

/**
 * `/login/phone`: a Taiwanese mobile number, then the 6-digit code texted to it. The same two steps sign in, sign
 * up (a new number gives its display name) and turn a guest into a named account. POST forms, no JavaScript needed.
 */
export function PhoneScreen() {
  const redirectTo = useRedirectTo();
  const send = useForm(phoneSchema, "send");
  const verify = useForm(phoneCodeSchema, "verify");
  const check = useBotCheck(send.outcome);
  const number = verify.outcome?.values?.phoneNumber ?? (send.outcome?.done ? send.outcome.values?.phoneNumber : undefined);
  return (
    <AuthScreen title="用手機號碼登入" lead="輸入你的手機號碼，我們會傳一封簡訊驗證碼給你。第一次使用就會建立新帳號。">
      {number ? (
        <Form method="post" action={verify.action} className="auth-form" onSubmit={verify.onSubmit} noValidate>
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <input type="hidden" name="phoneNumber" value={number} />
          <FormNotice message={send.outcome?.done ? `驗證碼已傳到 ${number}，5 分鐘內有效。` : null} />
          <FormAlert message={verify.outcome?.fieldErrors ? null : (verify.outcome?.formError ?? null)} />
          <Field name="code" label="簡訊驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={verify.errors.code} />
          <Field name="displayName" label="顯示名稱（第一次使用時填寫）" autoComplete="nickname"
            defaultValue={verify.outcome?.values?.displayName} error={verify.errors.displayName} />
          <SubmitButton pending={verify.pending} label="登入" />
        </Form>
      ) : null}
      <Form method="post" action={send.action} className="auth-form" noValidate onSubmit={(event) => {
        send.onSubmit(event);
        check.hold(event);
      }}>
        <input type="hidden" name="intent" value="send" />
        {check.field}
        <FormAlert message={send.outcome?.fieldErrors ? null : (send.outcome?.formError ?? null)} />
        <Field name="phoneNumber" label="手機號碼" type="tel" autoComplete="tel" inputMode="tel" required
          defaultValue={number ?? send.outcome?.values?.phoneNumber} error={send.errors.phoneNumber} />
        <SubmitButton pending={send.pending || check.waiting} label={number ? "重新傳送驗證碼" : "傳送驗證碼"}
          pendingLabel={check.waiting ? botCheckWaitingLabel : undefined} />
      </Form>
      <div className="auth-links">
        <Link to={authHref("/login", redirectTo)}>改用電子郵件登入</Link>
      </div>
    </AuthScreen>
  );
}
