import { useEffect, useReducer } from "react";
import { schedulerReducer } from "./scheduler-reducer";
import { loadSchedule, saveSchedule } from "./storage";

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // blocked by the browser's privacy settings
  }
}

/**
 * The page's tables, read from and saved to this browser only. Reading happens after hydration, so the
 * prerendered HTML and the first render agree.
 */
export function useScheduler() {
  const [view, dispatch] = useReducer(schedulerReducer, { schedule: null });

  useEffect(() => {
    const { state, problem } = loadSchedule(browserStorage(), new Date());
    dispatch({ type: "loaded", schedule: state, problem });
  }, []);

  useEffect(() => {
    if (!view.schedule) return;
    if (!saveSchedule(browserStorage(), view.schedule)) dispatch({ type: "save-failed" });
  }, [view.schedule]);

  return { view, dispatch };
}
