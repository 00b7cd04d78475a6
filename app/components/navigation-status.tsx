import { useEffect, useState } from "react";
import { createPath, useBlocker, useNavigation } from "react-router";
import { LoadError } from "./load-error";

/** As in the original: a screen whose code has not arrived after 120 s counts as failed. */
export const SCREEN_LOAD_TIMEOUT_MS = 120_000;

/**
 * While the next screen's code or data loads: a centred `載入中…`; after 120 s an error with a reload
 * button; when the browser is offline the navigation is held back and the same error explains why.
 */
export function NavigationStatus() {
  const navigation = useNavigation();
  const loading = navigation.state === "loading";
  const [timedOutAt, setTimedOutAt] = useState<string | null>(null);
  const target = navigation.location ? createPath(navigation.location) : null;

  useEffect(() => {
    if (!loading || !target) return;
    const timer = window.setTimeout(() => setTimedOutAt(target), SCREEN_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [loading, target]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    return !navigator.onLine && currentLocation.pathname !== nextLocation.pathname;
  });

  if (blocker.state === "blocked") {
    return (
      <div className="navigation-status navigation-status--error">
        <LoadError reason="offline" href={createPath(blocker.location)} />
      </div>
    );
  }
  if (timedOutAt && loading && timedOutAt === target) {
    return (
      <div className="navigation-status navigation-status--error">
        <LoadError reason="timeout" href={timedOutAt} />
      </div>
    );
  }
  if (!loading) return null;
  return (
    <div className="navigation-status" role="status" aria-live="polite">
      <p className="page-loading">載入中…</p>
    </div>
  );
}
