import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/**
 * The parameters of a mailed link (a reset or verification token, the address), read once and then removed
 * from the address bar, so they stay out of the history, analytics (gtag reads the address itself), a shared
 * screenshot, and the Referer of anything loaded afterwards. The values live on in this component's state.
 */
export function useLinkParams<const Name extends string>(names: readonly Name[]): Record<Name, string> {
  const [params] = useSearchParams();
  const [values] = useState(() => Object.fromEntries(names.map((name) => [name, params.get(name) ?? ""])) as Record<Name, string>);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (!names.some((name) => url.searchParams.has(name))) return;
    for (const name of names) url.searchParams.delete(name);
    // The router's own entry state is kept, so back and forward still work as before.
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
    // Once, on the first render's address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return values;
}
