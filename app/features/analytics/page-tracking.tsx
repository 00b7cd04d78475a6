import { useEffect } from "react";
import { useLocation } from "react-router";
import { track } from "./track";
import { withoutPrivateParams } from "./private-url";

const LANDING_KEY = "analytics:landed";
// Where sessionStorage is refused (some private modes), a visit is the life of this page.
let landedInThisPage = false;

function firstOpenOfVisit(): boolean {
  if (landedInThisPage) return false;
  landedInThisPage = true;
  try {
    if (sessionStorage.getItem(LANDING_KEY)) return false;
    sessionStorage.setItem(LANDING_KEY, "1");
  } catch {
    // storage refused: the page-level flag above decides
  }
  return true;
}

/** `landing_page_open` once per visit (a browser-tab session), `page_view` on every route change. */
export function PageTracking() {
  const { pathname } = useLocation();

  useEffect(() => {
    if (firstOpenOfVisit()) track("landing_page_open");
  }, []);

  useEffect(() => {
    // Runs after the commit, so the new screen's <title> is already in the document. A reset or verification
    // link's token and email never leave the browser, even before the screen clears them from the address bar.
    track("page_view", { page_path: pathname, page_title: document.title, page_location: withoutPrivateParams(location.href) });
  }, [pathname]);

  return null;
}
