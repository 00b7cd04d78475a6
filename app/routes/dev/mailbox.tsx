import { data } from "react-router";
import type { Route } from "./+types/mailbox";
import { notFoundMeta, pageMeta } from "~/features/seo/page-meta";
import { NotFoundMain } from "~/components/not-found-main";
import { readDevMailbox } from "~/features/dev-tools/dev-mailbox.server";
import { MailboxScreen } from "~/features/dev-tools/mailbox-screen";

export const meta: Route.MetaFunction = (args) =>
  args.loaderData?.mails
    ? pageMeta(args, { title: "開發用信箱", description: "開發環境寄出的電子郵件" })
    : notFoundMeta(args);

/**
 * Exists only on a loopback site without SMTP (PRODUCT §6); everywhere else it is the site's not-found
 * screen with 404 (answered, not thrown, so the error screen with this page's title never shows).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const mails = await readDevMailbox(request);
  return mails ? { mails } : data({ mails: null }, { status: 404 });
}

export default function DevMailboxScreen({ loaderData }: Route.ComponentProps) {
  if (!loaderData.mails) return <NotFoundMain />;
  return <MailboxScreen mails={loaderData.mails} />;
}
