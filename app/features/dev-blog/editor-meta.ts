import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { pageMeta } from "~/features/seo/page-meta";

type MetaArgs = Parameters<typeof pageMeta>[0] & { error?: unknown };
const noindex: MetaDescriptor = { name: "robots", content: "noindex" };

/** The editor screens are never indexed; a refused or missing post is named in the title. */
export function editorMeta(args: MetaArgs, loaderData: { post: { title: string } | null; texts: { editor: { createTitle: string; editTitle: string } } } | undefined) {
  const { error } = args;
  if (isRouteErrorResponse(error)) {
    const title = error.status === 403 ? "此頁限編輯使用" : error.status === 404 ? "找不到這篇開發日誌" : "編輯開發日誌";
    return [...pageMeta(args, { title }), noindex];
  }
  const editor = loaderData?.texts.editor;
  const title = loaderData?.post ? `${editor?.editTitle ?? "編輯開發日誌"}：${loaderData.post.title}` : (editor?.createTitle ?? "撰寫開發日誌");
  return [...pageMeta(args, { title }), noindex];
}
