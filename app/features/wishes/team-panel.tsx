import { Form } from "react-router";
import type { ZodType } from "zod";
import { useForm } from "~/components/form/form";
import { mergeInput, replyInput, statusInput, statusLabels, teamStatuses, wishLimits, type Wish } from "./wish-rules";

/** Editors only: status (with a reason for 暫不考慮), a short reply, merging a duplicate, hiding abuse. */
export function TeamPanel({ wish, hidden }: { wish: Wish; hidden: boolean }) {
  return (
    <section className="wish-panel" aria-labelledby="team-panel-heading">
      <h2 id="team-panel-heading">團隊管理</h2>
      <TeamForm intent="status" schema={statusInput} submit="更新狀態" primary>
        <TeamField id="team-status" label="狀態">
          <select id="team-status" name="status" defaultValue={wish.status === "open" ? "received" : wish.status}>
            {teamStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </select>
        </TeamField>
        <TeamField id="team-reason" label="暫不考慮的原因" hint="選「暫不考慮」時必填，會公開顯示。">
          <input id="team-reason" name="reason" defaultValue={wish.statusReason ?? ""} maxLength={wishLimits.reasonMax} />
        </TeamField>
      </TeamForm>
      <TeamForm intent="reply" schema={replyInput} submit="儲存回覆">
        <TeamField id="team-reply" label="團隊回覆" hint={`最多 ${wishLimits.replyMax} 個字，留空可移除回覆。`}>
          <textarea id="team-reply" name="reply" defaultValue={wish.teamReply ?? ""} maxLength={wishLimits.replyMax} />
        </TeamField>
      </TeamForm>
      <TeamForm intent="merge" schema={mergeInput} submit="合併">
        <TeamField id="team-merge" label="合併到另一個願望" hint="這個願望的票會移到目標願望（每人最多一票），許願的人若是已驗證的正式帳號也算一票。">
          <input id="team-merge" name="target" placeholder="貼上願望的網址" />
        </TeamField>
      </TeamForm>
      <Form method="post">
        <input type="hidden" name="intent" value={hidden ? "unhide" : "hide"} />
        <button type="submit" className="button button--danger">
          {hidden ? "重新顯示" : "隱藏這個願望"}
        </button>
      </Form>
    </section>
  );
}

/**
 * One team action: its fields, checked with the action's own schema before they go, why it was last refused (by
 * that check or by the action), its button.
 */
function TeamForm(props: { intent: string; schema: ZodType; submit: string; primary?: boolean; children: React.ReactNode }) {
  const form = useForm(props.schema, props.intent);
  const refusal = Object.values(form.errors)[0] ?? form.outcome?.formError;
  return (
    <Form method="post" className="wish-form" onSubmit={form.onSubmit}>
      <input type="hidden" name="intent" value={props.intent} />
      {props.children}
      {refusal ? (
        <p className="wish-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <p>
        <button type="submit" className={props.primary ? "button button--primary" : "button"}>
          {props.submit}
        </button>
      </p>
    </Form>
  );
}

function TeamField({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="wish-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <span className="wish-field__hint">{hint}</span> : null}
    </div>
  );
}
