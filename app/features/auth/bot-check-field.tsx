import { useEffect, useState } from "react";
import { botCheckField } from "./bot-check-client";

/**
 * The bot check of a form whose action calls a row that asks for it (sign-up, a guest, a texted code, an emailed
 * link, a reset mail): with JavaScript the browser solves a challenge as the form shows and puts the answer in a
 * hidden field; without it the field stays empty and the form still works, under RATE_LIMIT_NO_SCRIPT_PER_IP.
 * An answer works once: `renew` (the form's last outcome) asks for a new one after each sending.
 */
export function BotCheckField({ renew }: { renew?: unknown }) {
  const [answer, setAnswer] = useState("");
  useEffect(() => {
    let current = true;
    setAnswer("");
    // Loaded with the form, not the page: the solver stays off every other page's first load.
    import("./bot-check-client")
      .then(({ solveBotCheck }) => solveBotCheck())
      .then((solved) => current && setAnswer(solved))
      // Unsolved, the form is sent as without JavaScript: still accepted, under the stricter limit.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [renew]);
  return <input type="hidden" name={botCheckField} value={answer} data-bot-check={answer ? "solved" : "pending"} />;
}
