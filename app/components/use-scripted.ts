import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and until the page runs its scripts (always, without JavaScript), then true. A control
 * that needs JavaScript (a passkey, the clipboard) is rendered either way and disabled while this is false, so
 * nothing moves when the page hydrates (CONTRIBUTING, "Add a feature"; tests/e2e/hydration-layout.test.ts).
 */
export function useScripted(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
