import { useEffect } from "react";
import { useLocation } from "react-router";
import { track } from "./track";

const LANDING_KEY = "analytics:landed";

/** `landing_page_open` once per visit (a browser-tab session), `page_view` on every route change. */
export function PageTracking() {
  const { pathname } = useLocation();

  useEffect(() => {
    if (sessionStorage.getItem(LANDING_KEY)) return;
    sessionStorage.setItem(LANDING_KEY, "1");
    track("landing_page_open");
  }, []);

  useEffect(() => {
    // Runs after the commit, so the new screen's <title> is already in the document.
    track("page_view", { page_path: pathname, page_title: document.title, page_location: location.href });
  }, [pathname]);

  return null;
}
