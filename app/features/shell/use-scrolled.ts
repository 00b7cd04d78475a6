import { useSyncExternalStore } from "react";

/** The original §9: the bar takes its scrolled look after more than 50 px. */
export const SCROLLED_AFTER_PX = 50;

function subscribe(onChange: () => void) {
  addEventListener("scroll", onChange, { passive: true });
  return () => removeEventListener("scroll", onChange);
}

export function useScrolled(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.scrollY > SCROLLED_AFTER_PX,
    () => false,
  );
}
