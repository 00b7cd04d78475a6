import { useEffect, useRef } from "react";

/**
 * What an action did (done, or why not), shown where the person looks next: on arrival it takes focus, so a
 * screen reader reads it and the page scrolls it into view below the sticky bar (`scroll-margin-top` in
 * global.css). Without JavaScript `autofocus` asks the browser for the same on load.
 */
export function ResultNotice({ tone, className, children }: { tone: "done" | "error"; className?: string; children: React.ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const notice = ref.current;
    if (!notice) return;
    notice.focus({ preventScroll: true });
    notice.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <p
      ref={ref}
      tabIndex={-1}
      // Written into the server's HTML; in the browser the effect above does the same.
      autoFocus
      role={tone === "error" ? "alert" : "status"}
      className={["result-notice", className].filter(Boolean).join(" ")}
    >
      {children}
    </p>
  );
}
