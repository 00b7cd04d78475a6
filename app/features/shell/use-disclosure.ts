import { useCallback, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A disclosure (the small-screen menu, the user dropdown) built on `<details>`/`<summary>`: the browser opens and
 * closes it from the server's HTML alone, before the JavaScript arrives or without it. Once hydrated this adds
 * what a menu needs: it closes on a route change, on a pointer press outside it, and on Escape, which also returns
 * focus to its summary. When disclosures nest (the user dropdown inside the small-screen menu), Escape closes
 * only the innermost open one. The element's own `open` is the only state, so a toggle made before hydration
 * counts, and the listeners never lag behind a click.
 */
export function useDisclosure(onToggle?: (open: boolean) => void) {
  const { pathname } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  // Set while this code closes it, so the toggle event that follows is not reported as the person's own.
  const closingRef = useRef(false);
  const close = useCallback(() => {
    if (!ref.current?.open) return;
    closingRef.current = true;
    ref.current.open = false;
  }, []);

  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    close();
  }, [pathname, close]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const details = ref.current;
      // A nested one closes first, and its Escape is then spent.
      if (event.key !== "Escape" || !details?.open || event.defaultPrevented || details.querySelector("details[open]")) return;
      event.preventDefault();
      close();
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [close]);

  // `onToggle` hears the person's own opens and closes (what analytics counts), not the closes above.
  const detailsProps = {
    ref,
    onToggle: (event: React.SyntheticEvent<HTMLDetailsElement>) => {
      if (closingRef.current) closingRef.current = false;
      else onToggle?.(event.currentTarget.open);
    },
  };
  return { close, detailsProps };
}
