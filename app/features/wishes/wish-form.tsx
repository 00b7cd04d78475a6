import { useEffect, useState } from "react";
import { Form, Link } from "react-router";
import { useForm } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import { characterCount, wishInput, wishLimits, type Wish } from "./wish-rules";
import { similarApiPath, wishPath } from "./wish-paths";

interface Props {
  intent: "create" | "edit";
  action: string;
  initial?: { title: string; body: string };
  /** The action's refusal (the form kit's result), shown above the fields with the typed values kept. */
  problem?: FormResult | null;
  submitLabel: string;
  /** While a new wish's title is typed, similar wishes are shown so votes gather on one wish instead of spreading over copies. */
  suggestSimilar?: boolean;
}

/**
 * The wish form (make or edit): a plain POST form to the route action, with counters and similar wishes. Its one
 * schema (`wishInput`) checks it here before it goes and again in the action.
 */
export function WishForm({ intent, action, initial, problem, submitLabel, suggestSimilar = false }: Props) {
  const form = useForm(wishInput, intent);
  const [title, setTitle] = useState(problem?.values?.title ?? initial?.title ?? "");
  const [body, setBody] = useState(problem?.values?.body ?? initial?.body ?? "");
  const similar = useSimilarWishes(suggestSimilar ? title : "");
  const errors = form.errors;
  const id = (name: string) => `wish-${intent}-${name}`;

  return (
    <Form method="post" action={action} className="wish-form" onSubmit={form.onSubmit} noValidate>
      <input type="hidden" name="intent" value={intent} />
      {problem?.formError && (
        <p className="wish-error" role="alert">
          {problem.formError}
        </p>
      )}
      <div className="wish-field">
        <label htmlFor={id("title")}>願望標題</label>
        <input
          id={id("title")}
          name="title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          maxLength={wishLimits.titleMax * 2}
          required
          aria-describedby={`${id("title")}-hint`}
          aria-invalid={errors.title ? true : undefined}
          autoComplete="off"
        />
        <span id={`${id("title")}-hint`} className="wish-field__hint">
          {errors.title ?? `${characterCount(title)} / ${wishLimits.titleMax} 字`}
        </span>
      </div>
      {similar.length > 0 && (
        <div className="wish-similar" aria-live="polite">
          <strong>已經有人許過類似的願望，也許可以直接投一票：</strong>
          <ul>
            {similar.map((wish) => (
              <li key={wish.id}>
                <Link to={wishPath(wish.id)}>{wish.title}</Link>（{wish.voteCount} 票）
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="wish-field">
        <label htmlFor={id("body")}>說明（選填）</label>
        <textarea
          id={id("body")}
          name="body"
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-describedby={`${id("body")}-hint`}
          aria-invalid={errors.body ? true : undefined}
        />
        <span id={`${id("body")}-hint`} className="wish-field__hint">
          {errors.body ?? `${characterCount(body)} / ${wishLimits.bodyMax} 字；只顯示文字，網址不會變成連結`}
        </span>
      </div>
      <p>
        <button type="submit" className="button button--primary">
          {submitLabel}
        </button>
      </p>
    </Form>
  );
}

/** Similar wishes for a title being typed, fetched a moment after typing stops. */
function useSimilarWishes(title: string): Wish[] {
  const [found, setFound] = useState<{ title: string; wishes: Wish[] }>({ title: "", wishes: [] });
  const query = title.trim();
  useEffect(() => {
    if (characterCount(query) < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(similarApiPath(query), { signal: controller.signal })
        .then((response) => (response.ok ? (response.json() as Promise<{ wishes: Wish[] }>) : { wishes: [] }))
        .then((answer) => setFound({ title: query, wishes: answer.wishes }))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  return characterCount(query) < 2 ? [] : found.wishes;
}
