import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * Open/closed state of a WAI-ARIA disclosure (the mobile menu, the user dropdown). It closes on every route
 * change (it remembers the path it was opened on), on a pointer press outside `containerRef`, and on Escape,
 * which also returns focus to the toggle button. When disclosures nest (the user dropdown inside the
 * small-screen menu), Escape closes only the innermost open one.
 */
export function useDisclosure() {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpenOn(null), []);
  const toggle = () => {
    setOpenOn(open ? null : pathname);
    return !open;
  };

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const expanded = containerRef.current?.querySelectorAll('[aria-expanded="true"]') ?? [];
      if (Array.from(expanded).some((toggle) => toggle !== toggleRef.current)) return; // a nested one closes first
      close();
      toggleRef.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, close]);

  return { open, toggle, close, containerRef, toggleRef };
}
