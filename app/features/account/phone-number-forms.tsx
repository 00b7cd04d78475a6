import { Form } from "react-router";
import { Field, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { phoneCodeSchema, phoneSchema } from "~/features/auth/ways-in";
import { AccountFormAlert } from "./recent-sign-in-alert";
import { BotCheckField } from "~/features/auth";

/**
 * The account's phone number in 登入方式: the number with 移除, or a number to add — a code texted to it, then
 * that code. POST forms of the account center (account-center.server.ts): no JavaScript needed.
 */
export function PhoneNumberForms({ phoneNumber, only, returnTo }: { phoneNumber: string | null; only: boolean; returnTo: string }) {
  const send = useForm(phoneSchema, "send-phone-code");
  const add = useForm(phoneCodeSchema, "add-phone");
  const remove = useForm(phoneSchema.partial(), "remove-phone");
  if (phoneNumber) {
    return (
      <div className="card method">
        <div id="method-phone">
          <p className="method__name">手機號碼</p>
          <p className="method__since">{phoneNumber}</p>
        </div>
        <FormNotice message={add.outcome?.done ? (add.outcome.notice ?? null) : null} />
        <AccountFormAlert outcome={remove.outcome} returnTo={returnTo} />
        {only ? (
          <p className="method__note">這是唯一的登入方式，無法移除。</p>
        ) : (
          <Form method="post" action={remove.action}>
            <input type="hidden" name="intent" value="remove-phone" />
            <SubmitButton pending={remove.pending} label="移除手機號碼" pendingLabel="移除中…" />
          </Form>
        )}
      </div>
    );
  }
  // After a sent code (or a refused one), the number rides along in the code form.
  const number = add.outcome?.values?.phoneNumber ?? (send.outcome?.done ? send.outcome.values?.phoneNumber : undefined);
  return (
    <div className="card auth-form account-form">
      <h3>新增手機號碼</h3>
      <p>加入手機號碼後，也可以用簡訊驗證碼登入。</p>
      <FormNotice message={remove.outcome?.done ? (remove.outcome.notice ?? null) : null} />
      {number ? (
        <Form method="post" action={add.action} onSubmit={add.onSubmit} noValidate>
          <input type="hidden" name="intent" value="add-phone" />
          <input type="hidden" name="phoneNumber" value={number} />
          <FormNotice message={send.outcome?.done ? (send.outcome.notice ?? null) : null} />
          <AccountFormAlert outcome={add.outcome?.fieldErrors ? undefined : add.outcome} returnTo={returnTo} />
          <Field name="code" label="簡訊驗證碼" inputMode="numeric" autoComplete="one-time-code" required error={add.errors.code} />
          <SubmitButton pending={add.pending} label="加入手機號碼" pendingLabel="加入中…" />
        </Form>
      ) : null}
      <Form method="post" action={send.action} onSubmit={send.onSubmit} noValidate>
        <input type="hidden" name="intent" value="send-phone-code" />
        <BotCheckField renew={send.outcome} />
        <AccountFormAlert outcome={send.outcome?.fieldErrors ? undefined : send.outcome} returnTo={returnTo} />
        <Field name="phoneNumber" label="手機號碼" type="tel" autoComplete="tel" inputMode="tel" required
          defaultValue={number ?? send.outcome?.values?.phoneNumber} error={send.errors.phoneNumber} />
        <SubmitButton pending={send.pending} label={number ? "重新傳送驗證碼" : "傳送驗證碼"} />
      </Form>
    </div>
  );
}
