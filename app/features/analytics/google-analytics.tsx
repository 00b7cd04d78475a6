import { PRIVATE_PARAMS } from "./private-url";
import { useNonce } from "~/features/security/csp-nonce";

/**
 * GA4, only when a measurement id is configured. The data layer itself always exists (track.ts); here gtag is
 * told who we are. Page views are sent by PageTracking on every route change, so GA's automatic one is off.
 * gtag reads the address itself for every hit: when the page was opened with a private parameter (a reset or
 * verification link's token or email), the address it reports is given without them.
 * gtag.js is added by the inline script rather than by a <script src>: under the CSP's 'strict-dynamic' a script
 * the trusted (nonce- or hash-allowed) inline script inserts is trusted too, on server-rendered and prerendered
 * pages alike.
 */
export function GoogleAnalytics({ measurementId }: { measurementId: string | null }) {
  const nonce = useNonce();
  if (!measurementId) return null;
  // Only the server writes the script: the browser has run it from the HTML, and hydration adopts the existing
  // <script> without touching its content (the prop never changes afterwards).
  if (!import.meta.env.SSR) return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />;
  const src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  const init =
    "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag(\"js\",new Date());" +
    `(function(){var c={send_page_view:false},u=new URL(location.href),p=u.searchParams;` +
    `${JSON.stringify(PRIVATE_PARAMS)}.forEach(function(n){if(p.has(n)){p.delete(n);c.page_location=u.href}});` +
    `gtag("config",${JSON.stringify(measurementId)},c)})();` +
    `(function(){var s=document.createElement("script");s.async=true;s.src=${JSON.stringify(src)};document.head.appendChild(s)})();`;
  return (
    <script nonce={nonce} dangerouslySetInnerHTML={{ __html: init }} suppressHydrationWarning />
  );
}
