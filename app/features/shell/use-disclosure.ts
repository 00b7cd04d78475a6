import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * A disclosure (the small-screen menu, the user dropdown) built on `<details>`/`<summary>`: the browser opens and
 * closes it from the server's HTML alone, before the JavaScript arrives or without it. Once hydrated this adds
 * what a menu needs: it closes on a route change, on a pointer press outside it, and on Escape, which also returns
 * focus to its summary. When disclosures nest (the user dropdown inside the small-screen menu), Escape closes
 * only the innermost open one. A toggle made before hydration is kept (the element's own state is the truth).
 */
export function useDisclosure(onToggle?: (open: boolean) => void) {
  const { pathname } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    if (ref.current) ref.current.open = false;
  }, []);

  // Opened before hydration: no toggle event reaches React for that one.
  useEffect(() => setOpen(Boolean(ref.current?.open)), []);

  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    close();
  }, [pathname, close]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      // A nested one closes first, and its Escape is then spent.
      if (event.key !== "Escape" || event.defaultPrevented || ref.current?.querySelector("details[open]")) return;
      event.preventDefault();
      close();
      ref.current?.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, close]);

  const detailsProps = {
    ref,
    onToggle: (event: React.SyntheticEvent<HTMLDetailsElement>) => {
      const now = event.currentTarget.open;
      setOpen(now);
      onToggle?.(now);
    },
  };
  return { open, close, detailsProps };
}
