import type { MailboxEntry } from "~/features/mail/mailbox.server";
import "~/features/sign-in/auth-screens.css";

/** Every email the site sent while no SMTP server is configured, newest first, with its links to follow. */
export function MailboxScreen({ mails }: { mails: MailboxEntry[] }) {
  return (
    <main className="page">
      <h1>開發用信箱</h1>
      <p>沒有設定 SMTP 時，網站寄出的每封信都會出現在這裡（最新的在最上面）。</p>
      {mails.length === 0 ? <p>目前沒有信件。</p> : null}
      {mails.map((mail) => (
        <article key={`${mail.createdAt}-${mail.to}-${mail.subject}`} className="auth-card" style={{ maxWidth: "none", marginBottom: "1rem" }}>
          <h2>{mail.subject}</h2>
          <p>
            收件人：{mail.to}｜{new Date(mail.createdAt).toLocaleString("zh-TW")}
          </p>
          <pre style={{ whiteSpace: "pre-wrap" }}>{mail.text}</pre>
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
