import { Form, useActionData, useNavigation } from "react-router";
import { FormAlert, FormNotice } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import type { ActivityItem } from "./account-security";

/**
 * 最近的帳號活動: the account's own security record of the last 90 days (sign-ins, refused tries, changes), in
 * plain words and Taiwan time. 「這不是我」 signs out every other device at once and points to the password form.
 */
export function ActivityList({ activity, hasPassword }: { activity: ActivityItem[]; hasPassword: boolean }) {
  const answered = useActionData() as FormResult | undefined;
  const outcome = answered?.intent === "not-me" ? answered : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "not-me";

  return (
    <section className="page-section" aria-labelledby="security-activity">
      <h2 id="security-activity">最近的帳號活動</h2>
      <p>過去 90 天內你的帳號發生的事，時間皆為台灣時間。</p>
      {activity.length === 0 ? (
        <p>最近 90 天沒有紀錄。</p>
      ) : (
        <ol className="activity-list">
          {activity.map((item) => (
            <li key={item.id} className={item.refused ? "activity activity--refused" : "activity"}>
              <p className="activity__what">
                {item.what}
                {item.refused ? <span className="activity__badge">未成功</span> : null}
              </p>
              <p className="activity__where">
                <time dateTime={item.at}>{formatTaiwanDateTime(item.at)}</time>
                {item.device ? `．${item.device}` : null}
                {item.ip ? `．IP 位址 ${item.ip}` : null}
              </p>
            </li>
          ))}
        </ol>
      )}
      <h3 id="security-not-me">看到不是你做的事？</h3>
      <p>
        按下「這不是我」會立刻登出你帳號在其他所有裝置上的登入，接著請{hasPassword ? "更改密碼" : "設定一組密碼"}，別人就無法再用舊的方式登入。
      </p>
      <FormNotice message={outcome?.done && !busy ? (outcome.notice ?? null) : null} />
      <FormAlert message={outcome?.formError ?? null} />
      <Form method="post">
        <input type="hidden" name="intent" value="not-me" />
        <button type="submit" className="button" aria-describedby="security-not-me" disabled={busy}>
          {busy ? "登出中…" : "這不是我"}
        </button>
      </Form>
    </section>
  );
}
