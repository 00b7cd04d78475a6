import { Outlet } from "react-router";
import { HydrateLater } from "~/components/hydrate-later";
import { SiteHeader } from "~/features/shell/site-header";
import { SiteFooter } from "~/features/shell/site-footer";

/**
 * The shared layout: navigation bar above, footer below. The page's content, then the footer, hydrate after the
 * bar, each in a task of its own (decision 710).
 */
export default function SiteLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        跳到主要內容
      </a>
      <SiteHeader />
      <HydrateLater>
        <div id="main" className="site-main">
          <Outlet />
        </div>
        <HydrateLater>
          <SiteFooter />
        </HydrateLater>
      </HydrateLater>
    </>
  );
}
