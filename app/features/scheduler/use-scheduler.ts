import { useEffect, useReducer } from "react";
import { schedulerReducer } from "./scheduler-reducer";

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // blocked by the browser's privacy settings
  }
}

/**
 * The page's tables, read from and saved to this browser only. Reading happens after hydration, so the
 * prerendered HTML and the first render agree; the storage code (with its schema validation) loads then
 * too, keeping it out of the script the page needs to become interactive.
 */
export function useScheduler() {
  const [view, dispatch] = useReducer(schedulerReducer, { schedule: null });

  useEffect(() => {
    let active = true;
    void import("./storage").then(({ loadSchedule }) => {
      if (!active) return;
      const { state, problem } = loadSchedule(browserStorage(), new Date());
      dispatch({ type: "loaded", schedule: state, problem });
    });
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    const schedule = view.schedule;
    if (!schedule) return;
    void import("./storage").then(({ saveSchedule }) => {
      if (!saveSchedule(browserStorage(), schedule)) dispatch({ type: "save-failed" });
    });
  }, [view.schedule]);

  return { view, dispatch };
}
