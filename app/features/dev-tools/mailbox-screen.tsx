import type { MailboxEntry } from "~/features/mail/mailbox.server";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import "~/features/sign-in/auth-screens.css";

/**
 * Every email the site sent while no SMTP server is configured, and every text while no SMS gateway is (both
 * channels of the outbox), newest first, with its links to follow. Long links and addresses wrap, so it fits a phone.
 */
export function MailboxScreen({ mails }: { mails: MailboxEntry[] }) {
  return (
    <main className="page">
      <h1>開發用信箱</h1>
      <p>沒有設定 SMTP 或簡訊服務時，網站寄出的每封信和每則簡訊都會出現在這裡（最新的在最上面）。</p>
      {mails.length === 0 ? <p>目前沒有信件或簡訊。</p> : null}
      {mails.map((mail) => (
        <article key={`${mail.createdAt}-${mail.to}-${mail.subject}`} className="auth-card" style={{ maxWidth: "none", marginBottom: "1rem", overflowWrap: "anywhere" }}>
          <h2>{mail.subject}</h2>
          <p>
            收件人：{mail.to}｜{/* Taiwan time, the same on the server and in the browser (no hydration mismatch) */}
            <time dateTime={mail.createdAt}>{formatTaiwanDateTime(mail.createdAt)}（台灣時間）</time>
          </p>
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{mail.text}</pre>
          <ul>
            {mail.links.map((link) => (
              <li key={link}>
                <a href={link}>{link}</a>
              </li>
            ))}
          </ul>
        </article>
      ))}
    </main>
  );
}
