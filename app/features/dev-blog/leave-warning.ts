import { useEffect, useMemo, useRef } from "react";
import { useLocation } from "react-router";

export const leaveQuestion = "你有尚未儲存的修改，確定要離開這個頁面嗎？";

/**
 * Warns before unsaved changes are lost: the browser's own prompt when the tab closes, reloads or leaves the
 * site, and a confirmation before a link inside the site is followed. (React Router allows one blocker per
 * router and the shell's offline guard holds it, so links are checked here, in the capture phase, before the
 * router sees the click.) `allowNext()` lets the editor's own submission and the redirect after it through.
 */
export function useLeaveWarning(dirty: boolean) {
  const allowed = useRef(false);
  // Every arrival (the answer to a submission included) guards the page again.
  const { key } = useLocation();
  useEffect(() => {
    allowed.current = false;
  }, [key]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || allowed.current || event.defaultPrevented || link.getAttribute("target") === "_blank") return;
      const url = new URL((link as HTMLAnchorElement).href);
      if (url.origin !== window.location.origin || url.pathname + url.search === window.location.pathname + window.location.search) return;
      if (window.confirm(leaveQuestion)) {
        allowed.current = true;
      } else {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  return useMemo(
    () => ({
      allowNext: () => {
        allowed.current = true;
      },
      /** After a refused submission, unsaved changes are guarded again. */
      guardAgain: () => {
        allowed.current = false;
      },
    }),
    [],
  );
}
