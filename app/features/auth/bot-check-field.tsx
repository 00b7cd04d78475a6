import { useEffect, useRef, useState } from "react";
import { botCheckField } from "./bot-check-client";

/**
 * The bot check of a form whose action calls a row that asks for it (sign-up, a guest, a texted code, an emailed
 * link, a reset mail): with JavaScript the browser solves a challenge as the form shows and puts the answer in a
 * hidden field; without it the field stays empty and the form still works, under RATE_LIMIT_NO_SCRIPT_PER_IP.
 * An answer works once: `renew` (the form's last outcome) asks for a new one after each sending.
 */
export function BotCheckField({ renew }: { renew?: unknown }) {
  // The answer with the round it was solved for: one from before the last sending is spent.
  const [solved, setSolved] = useState<{ round: unknown; answer: string } | null>(null);
  // Where Turnstile's widget shows when the site uses it (empty otherwise).
  const widget = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let current = true;
    // Loaded with the form, not the page: the solver stays off every other page's first load.
    import("./bot-check-client")
      .then(({ solveBotCheck }) => solveBotCheck("", widget.current))
      .then((answer) => current && setSolved({ round: renew, answer }))
      // Unsolved, the form is sent as without JavaScript: still accepted, under the stricter limit.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [renew]);
  const answer = solved && solved.round === renew ? solved.answer : "";
  return (
    <>
      <input type="hidden" name={botCheckField} value={answer} data-bot-check={answer ? "solved" : "pending"} />
      <div ref={widget} />
    </>
  );
}
