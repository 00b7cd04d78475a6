import { Form, Link } from "react-router";
import { PageIntro } from "~/features/pages/page-intro";
import { FormNotice } from "~/components/form/form";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import type { ConsoleSearch } from "./console-types";
import { ParentStatus } from "./parent-status";
import "./admin-console.css";

/** 管理後台: find a parent by email, phone number, uid or name (a GET form: it works without JavaScript and can be bookmarked). */
export function ConsolePage({ operator, query, results, deleted }: ConsoleSearch) {
  return (
    <main className="page admin-console">
      <PageIntro title="管理後台" lead={`以 ${operator.email} 的身分操作。每次查看與操作都會記在該帳號的安全紀錄裡。`} />
      <FormNotice message={deleted ? `帳號 ${deleted} 已刪除。` : null} />
      <Form method="get" className="admin-search" role="search">
        <label htmlFor="admin-q">找家長</label>
        <input id="admin-q" name="q" type="search" defaultValue={query} placeholder="電子郵件、手機號碼、使用者編號（uid）或名稱" maxLength={200} />
        <button type="submit" className="button">
          搜尋
        </button>
      </Form>
      {results === null ? null : results.length === 0 ? (
        <p>找不到符合「{query}」的帳號。</p>
      ) : (
        <table className="admin-table">
          <caption>符合「{query}」的帳號（最多 20 筆）</caption>
          <thead>
            <tr>
              <th scope="col">電子郵件</th>
              <th scope="col">名稱</th>
              <th scope="col">狀態</th>
              <th scope="col">建立時間</th>
            </tr>
          </thead>
          <tbody>
            {results.map((parent) => (
              <tr key={parent.id}>
                <td>
                  <Link to={`/admin/users/${encodeURIComponent(parent.id)}`}>{parent.label}</Link>
                </td>
                <td>{parent.name}</td>
                <td>
                  <ParentStatus parent={parent} />
                </td>
                <td>{formatTaiwanDateTime(parent.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
