import { Form } from "react-router";
import { DevBlogStyles } from "./dev-blog-styles";
import { EditorActions } from "./editor-actions";
import { useEditorForm } from "./editor-form";
import { EditorHeading } from "./editor-heading";
import { UploadStatus, useEditorImages } from "./editor-images";
import { EditorNotices } from "./editor-notices";
import type { EditorResult } from "./editor.server";
import { LivePreview } from "./live-preview";
import { PostBodyField } from "./post-body-field";
import { PostMetadataFields } from "./post-metadata-fields";
import type { EditablePost } from "./types";

interface Props {
  post: EditablePost | null;
  /** The saved body rendered by the page's own renderer (empty for a new post). */
  initialPreview: string;
  actionData: EditorResult | undefined;
  titles: { createTitle: string; editTitle: string };
}

/**
 * The one editor screen for writing and editing a post. A plain POST form (works before the JavaScript
 * arrives: the 預覽 button renders on the server); with JavaScript the preview follows the typing, images go
 * in by upload, paste or drop, the browser keeps a copy of unsent work, and leaving with changes asks first. The
 * form's one schema checks 儲存 and 發表 before they go (預覽 and 刪除 go as they are) and again in the action.
 */
export function PostEditor({ post, initialPreview, actionData, titles }: Props) {
  const form = useEditorForm(post, actionData);
  const images = useEditorImages(form.edit);
  const published = post?.status === "published";

  return (
    <main className="page">
      <DevBlogStyles />
      <EditorHeading post={post} published={published} titles={titles} dirty={form.dirty} />
      <EditorNotices post={post} actionData={actionData} form={form} />

      <Form method="post" className="post-editor" onSubmit={form.onSubmit}>
        {post && <input type="hidden" name="version" value={post.version} />}
        <PostMetadataFields form={form} onCoverFile={(file) => void images.uploadCover(file)} />

        <div className="editor-panes">
          <PostBodyField form={form} bodyRef={images.bodyRef} onImageFiles={(files) => void images.insertImages(files)} />
          <LivePreview body={form.values.body} initialHtml={initialPreview} submittedHtml={actionData?.preview} />
        </div>

        <UploadStatus progress={images.progress} error={images.error} onCancel={images.cancel} />
        <EditorActions post={post} published={published} />
      </Form>
    </main>
  );
}
