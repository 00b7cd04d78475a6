import { Suspense, useEffect, useLayoutEffect } from "react";

/**
 * Hydration in turns (decision 710). React hydrates a server-rendered `<Suspense>` boundary after the rest of the
 * page, in a render and a commit of its own (at once when the visitor taps inside it first), so the parts of a page
 * wrapped in `<HydrateLater>` split the one long task of committing the whole page's hydration into shorter ones on
 * a slow phone. The markup is the same, with and without JavaScript.
 *
 * `<html data-hydrated>` (the early-tap replay and the tests wait for it) is set once the last part has hydrated:
 * each boundary counts itself in when its parent commits and out when its own content has.
 */
let waiting = 0;

function markIfAllHydrated() {
  if (waiting === 0) document.documentElement.dataset.hydrated = "";
}

export function HydrateLater({ children }: { children: React.ReactNode }) {
  useLayoutEffect(() => {
    waiting += 1;
  }, []);
  return (
    <Suspense fallback={null}>
      {children}
      <Hydrated />
    </Suspense>
  );
}

function Hydrated() {
  useEffect(() => {
    waiting -= 1;
    markIfAllHydrated();
  }, []);
  return null;
}

/** For the root: marks the page hydrated unless a `<HydrateLater>` part is still waiting (that part marks it then). */
export function useMarkHydrated() {
  useEffect(markIfAllHydrated, []);
}
