import { Form } from "react-router";
import type { FormProblem } from "./wish-form";
import { statusLabels, teamStatuses, wishLimits, type Wish } from "./wish-rules";

interface Props {
  wish: Wish;
  hidden: boolean;
  /** The last refused team action, shown beside its form. */
  problem: (FormProblem & { intent: string }) | null;
}

/** Editors only: status (with a reason for 暫不考慮), a short reply, merging a duplicate, hiding abuse. */
export function TeamPanel({ wish, hidden, problem }: Props) {
  const refusal = (intent: string) => (problem?.intent === intent ? (Object.values(problem.fieldErrors ?? {})[0] ?? problem.message) : null);
  return (
    <section className="wish-panel" aria-labelledby="team-panel-heading">
      <h2 id="team-panel-heading">團隊管理</h2>
      <TeamForm intent="status" submit="更新狀態" primary refusal={refusal("status")}>
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
      <TeamForm intent="reply" submit="儲存回覆" refusal={refusal("reply")}>
        <TeamField id="team-reply" label="團隊回覆" hint={`最多 ${wishLimits.replyMax} 個字，留空可移除回覆。`}>
          <textarea id="team-reply" name="reply" defaultValue={wish.teamReply ?? ""} maxLength={wishLimits.replyMax} />
        </TeamField>
      </TeamForm>
      <TeamForm intent="merge" submit="合併" refusal={refusal("merge")}>
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

/** One team action: its fields, why it was last refused, its button. */
function TeamForm(props: { intent: string; submit: string; primary?: boolean; refusal: string | null; children: React.ReactNode }) {
  return (
    <Form method="post" className="wish-form">
      <input type="hidden" name="intent" value={props.intent} />
      {props.children}
      {props.refusal ? (
        <p className="wish-error" role="alert">
          {props.refusal}
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
