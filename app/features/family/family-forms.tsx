import { Form, useActionData, useNavigation } from "react-router";
import { FormAlert, FormNotice } from "~/components/form/form";
import type { FamilyResult } from "./family-screen-types";
import { avatars, type Avatar } from "./family-rules";

/** The family screen's small parts: a one-button POST form, a section's answer lines, the avatar picker. */

/** The answer of the form named `intent`: its notice or its refusal (never another form's). */
export function useAnswer(intent: string) {
  const answered = useActionData() as FamilyResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") !== undefined;
  return { answer: answered?.intent === intent ? answered : undefined, busy };
}

export function AnswerLines({ answer }: { answer: FamilyResult | undefined }) {
  return (
    <>
      <FormNotice message={answer?.done ? (answer.notice ?? null) : null} />
      <FormAlert message={answer?.formError ?? null} />
    </>
  );
}

/** A POST form of one button (and hidden fields), e.g. 移出家庭; `confirm` asks first when JavaScript runs. */
export function ButtonForm({ intent, fields = {}, label, confirm, danger, action }: { intent: string; fields?: Record<string, string>; label: string; confirm?: string; danger?: boolean; action?: string }) {
  return (
    <Form method="post" action={action} onSubmit={(event) => (confirm && !window.confirm(confirm) ? event.preventDefault() : undefined)}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={danger ? "button button--danger" : "button"}>
        {label}
      </button>
    </Form>
  );
}

export function AvatarPicker({ name, chosen, idPrefix }: { name: string; chosen?: string; idPrefix: string }) {
  return (
    <fieldset className="family-avatars">
      <legend>頭像</legend>
      {(Object.entries(avatars) as [Avatar, string][]).map(([key, picture], index) => (
        <label key={key} htmlFor={`${idPrefix}-${key}`}>
          <input id={`${idPrefix}-${key}`} type="radio" name={name} value={key} defaultChecked={chosen ? chosen === key : index === 0} />
          <span aria-hidden="true">{picture}</span>
          <span className="family-hidden">{avatarNames[key]}</span>
        </label>
      ))}
    </fieldset>
  );
}

const avatarNames: Record<Avatar, string> = { lion: "獅子", rabbit: "兔子", cat: "貓咪", dog: "狗狗", bear: "熊", panda: "貓熊", tiger: "老虎", fox: "狐狸" };
