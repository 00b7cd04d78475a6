import { useEffect, useState } from "react";
import type { PostFormValues } from "./post-input";

/** What the browser keeps of an unsent edit: the form's values and when they were kept. */
export interface BrowserDraft {
  values: PostFormValues;
  savedAt: string;
}

const storageKey = (postId: string | null) => `dev-blog-draft:${postId ?? "new"}`;
export const sameValues = (a: PostFormValues, b: PostFormValues) =>
  a.title === b.title && a.summary === b.summary && a.body === b.body && a.tags === b.tags && a.cover === b.cover;

function read(key: string): BrowserDraft | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(key) ?? "null") as BrowserDraft | null;
    return stored && typeof stored.values?.body === "string" && typeof stored.savedAt === "string" ? stored : null;
  } catch {
    return null;
  }
}

/**
 * Keeps the editor's values in localStorage a moment after each change, so a closed tab or a crash loses
 * nothing. On opening, a kept copy that differs from the saved post is offered back; one that matches it
 * (the save went through) is dropped. Storage may be unavailable (private mode): then nothing is kept.
 */
export function useBrowserDraft(postId: string | null, values: PostFormValues, saved: PostFormValues, refusal: unknown) {
  const key = storageKey(postId);
  const [offered, setOffered] = useState<BrowserDraft | null>(null);

  useEffect(() => {
    // localStorage exists only in the browser, so the kept copy is read after hydration, once per opening
    // (later changes are this tab's own).
    const stored = read(key);
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (stored && !sameValues(stored.values, saved)) setOffered(stored);
    else forget(key);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const changed = !sameValues(values, saved);
  useEffect(() => {
    if (offered) return; // the kept copy is not overwritten before the writer chose
    const timer = window.setTimeout(() => {
      try {
        if (changed) window.localStorage.setItem(key, JSON.stringify({ values, savedAt: new Date().toISOString() }));
        else forget(key);
      } catch {
        // storage full or disabled
      }
    }, 500);
    return () => window.clearTimeout(timer);
    // `refusal` (the action's answer) re-keeps the copy that `forget` dropped when the form was sent.
  }, [key, values, changed, offered, refusal]);

  return {
    offered,
    /** The writer took the kept copy back (the caller puts its values into the form). */
    accept: () => setOffered(null),
    discard: () => {
      forget(key);
      setOffered(null);
    },
    /** The form is being sent: a refused save keeps it again, an accepted one leaves nothing behind. */
    forget: () => forget(key),
  };
}

function forget(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // storage disabled
  }
}
