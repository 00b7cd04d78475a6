import { PRIVATE_PARAMS } from "./private-url";

/**
 * GA4, only when a measurement id is configured. The data layer itself always exists (track.ts); here gtag is
 * told who we are. Page views are sent by PageTracking on every route change, so GA's automatic one is off.
 * gtag reads the address itself for every hit: when the page was opened with a private parameter (a reset or
 * verification link's token or email), the address it reports is given without them.
 */
export function GoogleAnalytics({ measurementId }: { measurementId: string | null }) {
  if (!measurementId) return null;
  const init =
    "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag(\"js\",new Date());" +
    `(function(){var c={send_page_view:false},u=new URL(location.href),p=u.searchParams;` +
    `${JSON.stringify(PRIVATE_PARAMS)}.forEach(function(n){if(p.has(n)){p.delete(n);c.page_location=u.href}});` +
    `gtag("config",${JSON.stringify(measurementId)},c)})();`;
  return (
    <>
      <script async src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`} />
      <script dangerouslySetInnerHTML={{ __html: init }} />
    </>
  );
}
