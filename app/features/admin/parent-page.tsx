import { Link } from "react-router";
import { PageIntro } from "~/features/pages/page-intro";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import { roles } from "~/features/auth";
import type { ParentFile } from "./console-types";
import { ParentStatus } from "./parent-status";
import { ParentFamily } from "./parent-family";
import { ActionFieldError, OperatorActionForm } from "./operator-action-form";
import "./admin-console.css";

const time = (iso: string) => <time dateTime={iso}>{formatTaiwanDateTime(iso)}</time>;

/** One parent's file: the account, its mail, ways in, devices and apps, family, security record, and the actions. */
export function ParentPage(file: ParentFile) {
  const { parent } = file;
  return (
    <main className="page admin-console">
      <p>
        <Link to="/admin">← 回到搜尋</Link>
      </p>
      <PageIntro title={parent.label} lead={`以 ${file.operator.email} 的身分查看。時間皆為台灣時間。`} />
      <section className="page-section" aria-labelledby="parent-account">
        <h2 id="parent-account">帳號</h2>
        <dl className="admin-facts">
          <dt>名稱</dt>
          <dd>{parent.name || "（未填）"}</dd>
          <dt>使用者編號（uid）</dt>
          <dd>
            <code>{parent.id}</code>
          </dd>
          <dt>狀態</dt>
          <dd>
            <ParentStatus parent={parent} />
            {parent.lockedAt ? <>（{time(parent.lockedAt)} 停用）</> : null}
          </dd>
          <dt>建立時間</dt>
          <dd>{time(parent.createdAt)}</dd>
          <dt>登入方式</dt>
          <dd>{[...file.waysIn, ...file.passkeys.map((key) => `密碼金鑰「${key.name}」`)].join("、") || "沒有"}</dd>
          <dt>兩步驟驗證</dt>
          <dd>{parent.twoStep ? "已開啟" : "未開啟"}</dd>
        </dl>
      </section>
      <section className="page-section" aria-labelledby="parent-mail">
        <h2 id="parent-mail">最近寄給這個帳號的信</h2>
        {file.mail.length === 0 ? (
          <p>{parent.hasEmail ? `沒有寄給 ${parent.email} 的信。` : "這個帳號沒有電子郵件（以手機號碼或訪客身分使用），不會收到信。"}</p>
        ) : (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">主旨</th>
                <th scope="col">排入時間</th>
                <th scope="col">寄送狀態</th>
              </tr>
            </thead>
            <tbody>
              {file.mail.map((mail, index) => (
                <tr key={index}>
                  <td>{mail.subject}</td>
                  <td>{time(mail.queuedAt)}</td>
                  <td>{mail.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="page-section" aria-labelledby="parent-devices">
        <h2 id="parent-devices">登入中的裝置與 App</h2>
        {file.devices.length + file.apps.length === 0 ? <p>目前沒有任何登入。</p> : null}
        <ul>
          {file.devices.map((device, index) => (
            <li key={`d${index}`}>
              {device.device}．IP 位址 {device.ip ?? "不明"}．登入 {time(device.createdAt)}．最近使用 {time(device.lastActiveAt)}
            </li>
          ))}
          {file.apps.map((app, index) => (
            <li key={`a${index}`}>
              App：{app.app}．IP 位址 {app.ip ?? "不明"}．登入 {time(app.createdAt)}．最近使用 {time(app.lastActiveAt)}
            </li>
          ))}
        </ul>
      </section>
      <section className="page-section" aria-labelledby="parent-family">
        <h2 id="parent-family">家庭</h2>
        <ParentFamily family={file.family} parentId={parent.id} />
      </section>
      <section className="page-section" aria-labelledby="parent-record">
        <h2 id="parent-record">安全紀錄（最近 200 筆）</h2>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">時間</th>
              <th scope="col">事件</th>
              <th scope="col">結果</th>
              <th scope="col">IP 位址</th>
              <th scope="col">裝置</th>
            </tr>
          </thead>
          <tbody>
            {file.record.map((line) => (
              <tr key={line.seq}>
                <td>{time(line.at)}</td>
                <td>
                  {line.what}
                  {line.byOperator && line.reason ? `（原因：${line.reason}）` : null}
                </td>
                <td>{line.refused ? `未成功${line.code ? `（${line.code}）` : ""}` : "成功"}</td>
                <td>{line.ip ?? ""}</td>
                <td>{line.device ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="page-section" aria-labelledby="parent-actions">
        <h2 id="parent-actions">操作</h2>
        <div className="admin-actions">
          {parent.verified || parent.guest ? null : (
            <OperatorActionForm intent="resend-verification" title="重寄驗證信" help="寄一封新的驗證信到這個帳號的電子郵件。" button="重寄驗證信" />
          )}
          <OperatorActionForm intent="sign-out-everywhere" title="登出所有裝置" help="結束這個帳號在每個瀏覽器與 App 上的登入。" button="登出所有裝置" />
          {parent.locked ? (
            <OperatorActionForm intent="unlock" follows="lock" title="恢復帳號" help="讓這個帳號可以再次登入。" button="恢復帳號" />
          ) : (
            <OperatorActionForm intent="lock" follows="unlock" title="停用帳號" help="立即結束所有登入，恢復前無法以任何方式登入。" button="停用帳號" />
          )}
          <OperatorActionForm intent="set-role" title="變更角色" help="user 是一般家長，editor 可管理開發日誌與許願池，admin 可使用管理後台。" button="變更角色">
            <label htmlFor="role">角色</label>
            <select id="role" name="role" defaultValue={parent.role}>
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
            <ActionFieldError intent="set-role" field="role" />
          </OperatorActionForm>
          <OperatorActionForm intent="delete" title="刪除帳號" help="永久刪除帳號與它的資料，無法復原；安全紀錄會保留。" button="刪除帳號">
            <label htmlFor="confirm-account">輸入「{parent.label}」以確認</label>
            <input id="confirm-account" name="confirmAccount" autoComplete="off" required />
            <ActionFieldError intent="delete" field="confirmAccount" />
          </OperatorActionForm>
        </div>
      </section>
    </main>
  );
}
