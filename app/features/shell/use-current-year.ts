import { useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";

const noUpdates = () => () => {};

/**
 * `renderedYear` while the server renders and while the page hydrates (so the markup matches, also on a page
 * prerendered in an earlier year), then the browser's current year.
 */
export function useYearAfterHydration(renderedYear: number): number {
  return useSyncExternalStore(
    noUpdates,
    () => new Date().getFullYear(),
    () => renderedYear,
  );
}

/** The current year for the copyright line; the root loader hands over the year the page was rendered in. */
export function useCurrentYear(): number {
  const data = useRouteLoaderData("root") as { renderedYear: number } | undefined;
  if (!data) throw new Error("useCurrentYear must be used below the root route");
  return useYearAfterHydration(data.renderedYear);
}
