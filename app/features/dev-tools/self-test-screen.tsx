import { AuthScreen } from "~/features/sign-in/sign-in-screen";
import { useAuth } from "~/features/auth";
import type { SelfTestReport } from "~/features/dev-tools/self-test.server";

const status = (ok: boolean) => (ok ? "✓ 正常" : "✗ 無回應");

/** The sign-in layer's self-test: which providers are on and whether each part answers (no secrets shown). */
export function SelfTestScreen({ report }: { report: SelfTestReport }) {
  const auth = useAuth();
  const session = auth.loading ? "載入中…" : auth.currentUser ? `已登入（${auth.currentUser.isAnonymous ? "訪客" : "會員"}）` : "未登入";
  return (
    <AuthScreen title="登入服務自我檢測">
      <table className="auth-table">
        <caption className="auth-card__lead">各項服務目前的狀態</caption>
        <tbody>
          <tr>
            <th scope="row">登入方式</th>
            <td>{report.providers.join("、")}</td>
          </tr>
          <tr>
            <th scope="row">登入 API</th>
            <td>{status(report.authApi)}</td>
          </tr>
          {report.database && (
            <tr>
              <th scope="row">資料庫（{report.database.dialect}）</th>
              <td>{status(report.database.ok)}</td>
            </tr>
          )}
          {report.mail && (
            <tr>
              <th scope="row">寄信（{report.mail.kind === "smtp" ? "SMTP" : "開發用信箱"}）</th>
              <td>{status(report.mail.ok)}</td>
            </tr>
          )}
          {report.rateLimitStore && (
            <tr>
              <th scope="row">流量限制儲存</th>
              <td>{report.rateLimitStore === "redis" ? "Redis（多台共用）" : "本機記憶體"}</td>
            </tr>
          )}
          <tr>
            <th scope="row">此瀏覽器</th>
            <td>{session}</td>
          </tr>
        </tbody>
      </table>
    </AuthScreen>
  );
}
