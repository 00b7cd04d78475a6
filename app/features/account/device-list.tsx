import { Form, useActionData, useNavigation } from "react-router";
import type { DeviceSession } from "~/features/auth";
import { FormAlert, FormNotice } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";

/**
 * 登入中的裝置 (ASVS 7.5.2): every session of the account, the current one first and marked, each other one with
 * a button that signs it out, and one button for all of them. The forms post a session's id, never its token.
 */
export function DeviceList({ devices }: { devices: DeviceSession[] }) {
  const answered = useActionData() as FormResult | undefined;
  const outcome = answered?.intent === "end-device" || answered?.intent === "end-other-devices" ? answered : undefined;
  const navigation = useNavigation();
  const ending = navigation.state !== "idle" ? navigation.formData : undefined;
  const others = devices.filter((device) => !device.current);

  return (
    <section className="page-section" aria-labelledby="security-devices">
      <h2 id="security-devices">登入中的裝置</h2>
      <p>以下是目前登入你帳號的裝置。看到不認得的裝置，請將它登出，並更改密碼。</p>
      <FormNotice message={outcome?.done && !ending ? (outcome.notice ?? null) : null} />
      <FormAlert message={outcome?.formError ?? null} />
      <ul className="device-list">
        {devices.map((device, index) => (
          <li key={device.id} className="card device">
            <div id={`device-${index}`}>
              <p className="device__name">
                {device.device}
                {device.current ? <span className="device__badge">目前這個裝置</span> : null}
              </p>
              {device.place ? <p className="device__place">網路位置：{device.place}</p> : null}
              <dl className="device__times">
                <dt>登入時間</dt>
                <dd>
                  <time dateTime={device.createdAt}>{formatTaiwanDateTime(device.createdAt)}</time>
                </dd>
                <dt>最近使用</dt>
                <dd>
                  <time dateTime={device.lastActiveAt}>{formatTaiwanDateTime(device.lastActiveAt)}</time>
                </dd>
              </dl>
            </div>
            {/* It asks first, without JavaScript too (a <details>): only 確定登出 posts the form. */}
            {device.current ? null : (
              <details className="device__end">
                <summary className="button" aria-describedby={`device-${index}`}>
                  登出這個裝置
                </summary>
                <div role="group" aria-label="確認登出">
                  <p>確定要登出「{device.device}」嗎？那個裝置需要重新登入才能使用。</p>
                  <Form method="post">
                    <input type="hidden" name="intent" value="end-device" />
                    <input type="hidden" name="id" value={device.id} />
                    <button type="submit" className="button button--danger" disabled={ending?.get("id") === device.id}>
                      {ending?.get("id") === device.id ? "登出中…" : "確定登出"}
                    </button>
                  </Form>
                </div>
              </details>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-other-devices" />
          <button type="submit" className="button" disabled={ending?.get("intent") === "end-other-devices"}>
            {ending?.get("intent") === "end-other-devices" ? "登出中…" : "登出其他所有裝置"}
          </button>
        </Form>
      ) : (
        <p>只有這個裝置登入你的帳號。</p>
      )}
      <p className="device-list__note">時間皆為台灣時間；「最近使用」每天最多更新一次。</p>
    </section>
  );
}
