import { useEffect, useMemo, useRef } from "react";
import { useBlocker, useLocation } from "react-router";

export const leaveQuestion = "你有尚未儲存的修改，確定要離開這個頁面嗎？";

/**
 * Warns before unsaved changes are lost: the browser's own prompt when the tab closes or reloads, and a
 * confirmation for links inside the site. `allowNext()` lets the editor's own submission (and the redirect
 * after it) through.
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
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowed.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(leaveQuestion)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

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
