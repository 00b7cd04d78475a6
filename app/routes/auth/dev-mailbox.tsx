import { data } from "react-router";
import type { Route } from "./+types/dev-mailbox";
import { notFoundMeta, pageMeta } from "~/features/seo/page-meta";
import { NotFoundMain } from "~/components/not-found-main";
import { getAuthService } from "~/features/auth/auth-service.server";
import { listMailbox } from "~/features/mail/mailbox.server";
import "~/features/auth/auth-screens.css";

export const meta: Route.MetaFunction = (args) =>
  args.loaderData?.mails
    ? pageMeta(args, { title: "開發用信箱", description: "開發環境寄出的電子郵件" })
    : notFoundMeta(args);

/**
 * Exists only on a loopback site without SMTP (PRODUCT.md §6); everywhere else it is the site's not-found
 * screen with 404 (answered, not thrown, so the error screen with this page's title never shows).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const service = getAuthService();
  if (!service.devMailbox) return data({ mails: null }, { status: 404 });
  const to = new URL(request.url).searchParams.get("to") ?? undefined;
  return { mails: await listMailbox(service.database.db, to) };
}

export default function DevMailboxScreen({ loaderData }: Route.ComponentProps) {
  if (!loaderData.mails) return <NotFoundMain />;
  return (
    <main className="page">
      <h1>開發用信箱</h1>
      <p>沒有設定 SMTP 時，網站寄出的每封信都會出現在這裡（最新的在最上面）。</p>
      {loaderData.mails.length === 0 ? <p>目前沒有信件。</p> : null}
      {loaderData.mails.map((mail) => (
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
