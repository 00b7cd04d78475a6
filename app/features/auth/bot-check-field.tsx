import { useEffect, useRef, useState } from "react";
import { botCheckField, solveBotCheck } from "./bot-check-client";

/** What the submit button says while a held form waits for its check (useBotCheck). */
export const botCheckWaitingLabel = "安全檢查中…";

/** Tries at the challenge before a held form goes unsolved (as without JavaScript): a dropped connection, a restart. */
const attempts = 3;

/**
 * The bot check of a form whose action calls a row that asks for it (sign-up, a guest, a texted code, an emailed
 * link, a reset mail). With JavaScript the browser starts solving a challenge as soon as the form is on a hydrated
 * page (the solver's chunk and the challenge load side by side) and puts the answer in a hidden field; a form sent
 * before that is held (`hold` in its onSubmit, the button saying 「安全檢查中…」 while `waiting`) and sent by itself
 * once solved, so a parent with JavaScript never spends the no-JavaScript allowance. Without JavaScript the field
 * stays empty and the form still works, under RATE_LIMIT_NO_SCRIPT_PER_IP. An answer works once: `renew` (the
 * form's last outcome) asks for a new one after each sending.
 */
export function useBotCheck(renew?: unknown) {
  // The answer with the round it was solved for: one from before the last sending is spent. "" is "nothing to
  // solve" (the check is off) or "could not solve" (the challenge never came): the form then goes as without it.
  const [solved, setSolved] = useState<{ round: unknown; answer: string } | null>(null);
  // A submission made before the answer came, to be sent again once it is in: only in the round it was made in,
  // so it is sent once, never again when the next round's answer comes.
  const [held, setHeld] = useState<{ form: HTMLFormElement; submitter: HTMLElement | null; round: unknown } | null>(null);
  // Where Turnstile's widget shows when the site uses it (empty otherwise).
  const widget = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    let current = true;
    void (async () => {
      let answer = "";
      for (let attempt = 1; attempt <= attempts && current; attempt++) {
        try {
          answer = await solveBotCheck("", widget.current);
          break;
        } catch {
          if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, attempt * 1_000));
        }
      }
      if (current) setSolved({ round: renew, answer });
    })();
    return () => {
      current = false;
    };
  }, [renew]);
  const answer = solved && solved.round === renew ? solved.answer : null;
  const pending = held && held.round === renew ? held : null;
  useEffect(() => {
    if (!pending || answer === null) return;
    // The same submission again, now with the answer in its field: onSubmit checks it once more, `hold` lets it go.
    if (pending.form.isConnected) pending.form.requestSubmit(pending.submitter?.isConnected ? pending.submitter : null);
  }, [pending, answer]);
  return {
    /** The hidden field (and Turnstile's place), inside the form. */
    field: (
      <>
        <input ref={input} type="hidden" name={botCheckField} value={answer ?? ""} data-bot-check={answer ? "solved" : "pending"} />
        <div ref={widget} />
      </>
    ),
    /** Whether a sent form waits for its check. */
    waiting: pending !== null && answer === null,
    /** Whether the answer is in (or there is nothing to solve), and the hidden field. */
    settled: answer !== null,
    input,
    /** Holds `form`'s submission by `submitter` until the answer is in. */
    holdUntilSolved(form: HTMLFormElement, submitter: HTMLElement | null) {
      setHeld({ form, submitter, round: renew });
    },
    /** Forgets a held submission once it went (or was stopped by the form's own checks). */
    release() {
      if (held) setHeld(null);
    },
    /** For the form's onSubmit, after its own checks: holds a submission whose check is not solved yet. */
    hold(event: React.FormEvent<HTMLFormElement>) {
      if (event.defaultPrevented || answer !== null) {
        if (held) setHeld(null);
        return;
      }
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      setHeld({ form: event.currentTarget, submitter: submitter ?? null, round: renew });
    },
  };
}

/**
 * The hidden field for a form not wired to `useBotCheck`: it holds a submission made before the answer came all
 * the same (a listener on the form, ahead of React's), says 「安全檢查中…」 beside the field meanwhile (the button is
 * the form's own), and sends it once solved.
 */
export function BotCheckField({ renew }: { renew?: unknown }) {
  const check = useBotCheck(renew);
  const { settled, input, holdUntilSolved, release } = check;
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => {
      if (settled) return release();
      // Kept from React (its listener sits on the document), so the router never sends this one.
      event.preventDefault();
      event.stopPropagation();
      holdUntilSolved(form, event.submitter);
    };
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, [settled, input, holdUntilSolved, release]);
  return (
    <>
      {check.field}
      {check.waiting ? (
        <p role="status" className="field__hint">
          {botCheckWaitingLabel}
        </p>
      ) : null}
    </>
  );
}
