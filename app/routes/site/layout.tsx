import { Outlet } from "react-router";
import { SiteHeader } from "~/features/shell/site-header";
import { SiteFooter } from "~/features/shell/site-footer";

/** The shared layout: navigation bar above, footer below. */
export default function SiteLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        跳到主要內容
      </a>
      <SiteHeader />
      <div id="main" className="site-main">
        <Outlet />
      </div>
      <SiteFooter />
    </>
  );
}
