import { lazy } from "react";
import { Outlet } from "react-router";
import { HydrateLater } from "~/components/hydrate-later";

/**
 * The bar's and the footer's code is no part of the page's first load: each is fetched when the page hydrates, and
 * until it has arrived its boundary keeps the server's markup as it is, so nothing moves (the session check's answer
 * is a transition for this: auth-provider.tsx). Both work from that
 * markup meanwhile (links, the `<details>` menus, the footer's fallbacks; a tap on a button is kept:
 * defer-hydration.server.ts). The server renders the whole document before answering, so its HTML is unchanged.
 */
const SiteHeader = lazy(() => import("~/features/shell/site-header").then((module) => ({ default: module.SiteHeader })));
const SiteFooter = lazy(() => import("~/features/shell/site-footer").then((module) => ({ default: module.SiteFooter })));

/**
 * The shared layout: navigation bar above, footer below. The bar, the page's content and the footer hydrate each
 * in a task of its own (decision 710).
 */
export default function SiteLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        跳到主要內容
      </a>
      <HydrateLater>
        <SiteHeader />
      </HydrateLater>
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
