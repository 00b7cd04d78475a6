import { isRouteErrorResponse, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/dev-blog-editor";
import { ContentNotFound } from "~/features/articles/content-not-found";
import { editorAction, loadEditor } from "~/features/dev-blog/editor.server";
import { editorMeta } from "~/features/dev-blog/editor-meta";
import { ForbiddenView, type ForbiddenTexts } from "~/features/dev-blog/forbidden-view";
import { devBlogPath } from "~/features/dev-blog/links";
import { PostEditor } from "~/features/dev-blog/post-editor";

export const loader = ({ request, params }: Route.LoaderArgs) => loadEditor(request, params.id);

export const action = ({ request, params }: Route.ActionArgs) => editorAction(request, params.id);

// A live preview changes nothing stored: the editor's data need not be fetched again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "preview" ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = (args) => editorMeta(args, args.loaderData);

export default function DevBlogEditorScreen({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PostEditor
      key={loaderData.post?.id ?? "new"}
      post={loaderData.post}
      initialPreview={loaderData.preview}
      actionData={actionData}
      titles={loaderData.texts.editor}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 403) return <ForbiddenView texts={(error.data as { forbidden: ForbiddenTexts }).forbidden} />;
  if (isRouteErrorResponse(error) && error.status === 404) return <ContentNotFound title="找不到這篇開發日誌" backTo={devBlogPath} backLabel="開發日誌" />;
  throw error;
}
