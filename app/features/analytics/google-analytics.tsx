/**
 * GA4, only when a measurement id is configured. The data layer itself always exists (track.ts); here gtag is
 * told who we are. Page views are sent by PageTracking on every route change, so GA's automatic one is off.
 */
export function GoogleAnalytics({ measurementId }: { measurementId: string | null }) {
  if (!measurementId) return null;
  const init =
    "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag(\"js\",new Date());" +
    `gtag("config",${JSON.stringify(measurementId)},{send_page_view:false});`;
  return (
    <>
      <script async src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`} />
      <script dangerouslySetInnerHTML={{ __html: init }} />
    </>
  );
}
