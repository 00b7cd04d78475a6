import { Suspense, lazy, useState, type ComponentType } from "react";
import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { shareLinkLabels, shareLinks, shareText, type ShareLinkMethod } from "./share";
import { useCurrentYear } from "./use-current-year";

const siteLinks = [
  { to: "/", label: "首頁" },
  { to: "/about", label: "關於我們" },
  { to: "/features", label: "功能介紹" },
  { to: "/pricing", label: "免費方案" },
  { to: "/faq", label: "常見問題" },
  { to: "/blog", label: "家長學堂" },
  { to: "/task-scheduler", label: "免費任務表" },
];

const legalLinks = [
  { to: "/privacy", label: "隱私權政策" },
  { to: "/terms", label: "服務條款" },
  { to: "/ironman2025", label: "技術文章" },
];

type DialogComponent = ComponentType<{ open: boolean; onClose: () => void }>;

/**
 * The four support dialogs load on first use, fetched ahead when the pointer or focus reaches their button: every
 * page's footer has them and few visits open one (the first-load budget of PRODUCT §9).
 */
const lazyDialog = (load: () => Promise<DialogComponent>) => {
  const prefetch = () => void load().catch(() => undefined);
  return { prefetch, Component: lazy(async () => ({ default: await load() })) };
};
const dialogs = {
  share: { label: "分享網站", ...lazyDialog(() => import("./share-dialog").then((module) => module.ShareDialog)) },
  follow: { label: "追蹤我們", ...lazyDialog(() => import("./follow-dialog").then((module) => module.FollowDialog)) },
  parentPartner: { label: "家長夥伴互助", ...lazyDialog(() => import("./parent-partner-dialog").then((module) => module.ParentPartnerDialog)) },
  partnership: { label: "合作提案", ...lazyDialog(() => import("./partnership-dialog").then((module) => module.PartnershipDialog)) },
};
type DialogName = keyof typeof dialogs;

/** The footer (PRODUCT §4): link groups, contact links, the four support dialogs, the copyright line. */
export function SiteFooter() {
  const env = usePublicEnv();
  const year = useCurrentYear();
  const [openDialog, setOpenDialog] = useState<DialogName | null>(null);
  // A dialog once opened stays mounted (closed), so closing returns focus to its button like any other.
  const [usedDialogs, setUsedDialogs] = useState<readonly DialogName[]>([]);
  const open = (name: DialogName) => {
    setUsedDialogs((used) => (used.includes(name) ? used : [...used, name]));
    setOpenDialog(name);
  };
  // Only the pages that are configured: an unset one is left out rather than sent to the site's home page.
  const contactLinks = [
    { href: env.facebookPageUrl, label: "Facebook 粉絲專頁" },
    { href: env.youtubeUrl, label: "YouTube 頻道" },
    { href: env.blogSalonUrl, label: "部落格沙龍" },
    { href: env.feedbackFormUrl, label: "意見回饋表單" },
  ].filter((link): link is { href: string; label: string } => link.href !== null);
  const shownDialogs = Object.keys(dialogs) as DialogName[];
  // Without JavaScript these two are links that do the work themselves (the share links below, the page to
  // follow); with it they open their dialog. A tap before the scripts arrive is kept (defer-hydration.server.ts).
  const withoutScript: Partial<Record<DialogName, string>> = { share: `#${shareFallbackId}`, follow: env.followUs.href };

  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label="頁尾導覽" className="site-footer__groups">
          <FooterGroup title="網站導覽">
            {siteLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </FooterGroup>
          <FooterGroup title="條款與文章">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </FooterGroup>
          <FooterGroup title="聯絡我們">
            <li>
              <a href={`mailto:${env.supportEmail}`}>{env.supportEmail}</a>
            </li>
            {contactLinks.map((link) => (
              <li key={link.label}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {link.label}
                </a>
              </li>
            ))}
          </FooterGroup>
        </nav>
        <section className="site-footer__support" aria-labelledby="footer-support-title">
          <h2 id="footer-support-title" className="site-footer__heading">
            支持我們
          </h2>
          <div className="site-footer__buttons">
            {shownDialogs.map((name) => {
              const href = withoutScript[name];
              return href ? (
                <a
                  key={name}
                  href={href}
                  role="button"
                  className="button"
                  data-keep-early-tap=""
                  onPointerEnter={dialogs[name].prefetch}
                  onFocus={dialogs[name].prefetch}
                  onClick={(event) => {
                    event.preventDefault();
                    open(name);
                  }}
                >
                  {dialogs[name].label}
                </a>
              ) : (
                <button key={name} type="button" className="button" onPointerEnter={dialogs[name].prefetch} onFocus={dialogs[name].prefetch} onClick={() => open(name)}>
                  {dialogs[name].label}
                </button>
              );
            })}
          </div>
          <ShareWithoutScript siteUrl={env.siteUrl} productName={env.productName} />
        </section>
        <p className="site-footer__copyright">
          © {year} {env.productName}
        </p>
      </div>
      {usedDialogs.map((name) => {
        const { Component } = dialogs[name];
        return (
          <Suspense key={name} fallback={null}>
            <Component open={openDialog === name} onClose={() => setOpenDialog(null)} />
          </Suspense>
        );
      })}
    </footer>
  );
}

const shareFallbackId = "share-site";

/** 分享網站 without JavaScript: shown only as the target of its link (CSS `:target`), the share links and the address. */
function ShareWithoutScript({ siteUrl, productName }: { siteUrl: string; productName: string }) {
  const text = shareText(productName);
  const links = shareLinks(siteUrl, text);
  return (
    <div id={shareFallbackId} className="site-footer__share">
      <p>{text}</p>
      <ul>
        {(Object.keys(links) as ShareLinkMethod[]).map((method) => (
          <li key={method}>
            <a href={links[method]} target="_blank" rel="noopener noreferrer">
              分享到 {shareLinkLabels[method]}
            </a>
          </li>
        ))}
      </ul>
      <p>網址：{siteUrl}</p>
    </div>
  );
}

function FooterGroup({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="site-footer__group">
      <h2 className="site-footer__heading">{title}</h2>
      <ul>{children}</ul>
    </div>
  );
}
