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
  const errorFor = (intent: string) =>
    problem?.intent === intent ? (
      <p className="wish-error" role="alert">
        {Object.values(problem.fieldErrors ?? {})[0] ?? problem.message}
      </p>
    ) : null;
  return (
    <section className="wish-panel" aria-labelledby="team-panel-heading">
      <h2 id="team-panel-heading">團隊管理</h2>
      <Form method="post" className="wish-form">
        <input type="hidden" name="intent" value="status" />
        <div className="wish-field">
          <label htmlFor="team-status">狀態</label>
          <select id="team-status" name="status" defaultValue={wish.status === "open" ? "received" : wish.status}>
            {teamStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="wish-field">
          <label htmlFor="team-reason">暫不考慮的原因</label>
          <input id="team-reason" name="reason" defaultValue={wish.statusReason ?? ""} maxLength={wishLimits.reasonMax} />
          <span className="wish-field__hint">選「暫不考慮」時必填，會公開顯示。</span>
        </div>
        {errorFor("status")}
        <p>
          <button type="submit" className="button button--primary">
            更新狀態
          </button>
        </p>
      </Form>
      <Form method="post" className="wish-form">
        <input type="hidden" name="intent" value="reply" />
        <div className="wish-field">
          <label htmlFor="team-reply">團隊回覆</label>
          <textarea id="team-reply" name="reply" defaultValue={wish.teamReply ?? ""} maxLength={wishLimits.replyMax} />
          <span className="wish-field__hint">最多 {wishLimits.replyMax} 個字，留空可移除回覆。</span>
        </div>
        {errorFor("reply")}
        <p>
          <button type="submit" className="button">
            儲存回覆
          </button>
        </p>
      </Form>
      <Form method="post" className="wish-form">
        <input type="hidden" name="intent" value="merge" />
        <div className="wish-field">
          <label htmlFor="team-merge">合併到另一個願望</label>
          <input id="team-merge" name="target" placeholder="貼上願望的網址" />
          <span className="wish-field__hint">這個願望的票會移到目標願望（每人最多一票），許願的人也算一票。</span>
        </div>
        {errorFor("merge")}
        <p>
          <button type="submit" className="button">
            合併
          </button>
        </p>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value={hidden ? "unhide" : "hide"} />
        <button type="submit" className="button button--danger">
          {hidden ? "重新顯示" : "隱藏這個願望"}
        </button>
      </Form>
    </section>
  );
}
