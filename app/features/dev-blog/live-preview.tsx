import { useEffect, useRef } from "react";
import { useFetcher, useFormAction } from "react-router";
import { Prose } from "~/features/articles/prose";
import type { EditorResult } from "./editor.server";

const previewDelayMs = 400;

interface Props {
  body: string;
  /** The saved body rendered by the page's own renderer (empty for a new post). */
  initialHtml: string;
  /** The body as the 更新預覽 button had it rendered (how the preview works before the JavaScript arrives). */
  submittedHtml: string | undefined;
}

/** The preview pane beside the body. */
export function LivePreview({ body, initialHtml, submittedHtml }: Props) {
  const preview = useLivePreview(body, initialHtml, submittedHtml);
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">預覽</h2>
      <div className="editor-preview" aria-live="polite" aria-busy={preview.pending}>
        {preview.html ? <Prose html={preview.html} /> : <p className="editor-field__hint">內文的預覽會顯示在這裡，與發表後的樣子相同。</p>}
      </div>
    </section>
  );
}

/**
 * The preview follows the body a moment after typing stops. It is rendered by the server's own renderer (the
 * editor action's `preview`), so what the writer sees is exactly what readers will get.
 */
function useLivePreview(body: string, initialHtml: string, submittedHtml: string | undefined) {
  const fetcher = useFetcher<EditorResult>();
  // The editor's own address, fixed at render: a fetcher without one posts to the router's current location, which
  // is already the published post while its screen loads (發表 tapped within the delay), and that route has no action.
  const action = useFormAction();
  const renderedBody = useRef(body);
  useEffect(() => {
    if (body === renderedBody.current) return;
    const timer = window.setTimeout(() => {
      renderedBody.current = body;
      void fetcher.submit({ intent: "preview", body }, { method: "post", action });
    }, previewDelayMs);
    return () => window.clearTimeout(timer);
  }, [body, fetcher, action]);
  return { html: fetcher.data?.preview ?? submittedHtml ?? initialHtml, pending: fetcher.state !== "idle" };
}
