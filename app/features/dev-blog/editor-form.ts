import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { useForm } from "~/components/form/form";
import { sameValues, useBrowserDraft } from "./browser-draft";
import type { EditorResult } from "./editor.server";
import { useLeaveWarning } from "./leave-warning";
import { postFormSchema, toFormValues, type PostFormValues } from "./post-input";
import type { EditablePost } from "./types";

const emptyValues: PostFormValues = { title: "", summary: "", body: "", tags: "", cover: "" };

export type EditValues = Dispatch<SetStateAction<PostFormValues>>;

/**
 * The editor form's state: the values against the saved post (`dirty`), the browser's copy of unsent work, the
 * warning before leaving with changes, and the schema's check of 儲存 and 發表 before they go. A refused
 * submission (the action's answer) guards the unsaved changes again.
 */
export function useEditorForm(post: EditablePost | null, actionData: EditorResult | undefined) {
  const saved = useMemo(
    () => (post ? toFormValues({ title: post.title, summary: post.summary, body: post.body, tags: post.tags, cover: post.coverUrl }) : emptyValues),
    [post],
  );
  const [values, setValues] = useState<PostFormValues>(actionData?.values ? { ...emptyValues, ...actionData.values } : saved);
  const schemaCheck = useForm(postFormSchema);
  const dirty = !sameValues(values, saved);
  const draft = useBrowserDraft(post?.id ?? null, values, saved, actionData);
  const leave = useLeaveWarning(dirty);
  // A change after a submission let the page go is unsaved again at once, before the answer's navigation lands.
  const edit: EditValues = (update) => {
    leave.guardAgain();
    setValues(update);
  };

  useEffect(() => {
    if (actionData) leave.guardAgain();
  }, [actionData, leave]);

  return {
    values,
    edit,
    dirty,
    draft,
    errors: schemaCheck.errors,
    /** The change handler of one field. */
    change: (name: keyof PostFormValues) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      edit((current) => ({ ...current, [name]: event.target.value })),
    onSubmit: (event: React.FormEvent<HTMLFormElement>) => {
      schemaCheck.onSubmit(event);
      if (event.defaultPrevented) return;
      leave.allowNext();
      draft.forget();
    },
  };
}

export type EditorForm = ReturnType<typeof useEditorForm>;
