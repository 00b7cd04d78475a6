import { Link } from "react-router";
import { devBlogPath, postHref } from "./links";
import type { EditablePost } from "./types";

interface Props {
  post: EditablePost | null;
  published: boolean;
  titles: { createTitle: string; editTitle: string };
  dirty: boolean;
}

/** Where the editor is (the blog, the post's own page) and the post's state, unsaved changes included. */
export function EditorHeading({ post, published, titles, dirty }: Props) {
  return (
    <>
      <p className="breadcrumb">
        <Link to={devBlogPath}>開發日誌</Link>
        {post && (
          <>
            <span aria-hidden="true"> › </span>
            <Link to={postHref(post.id)}>{published ? "檢視已發表的文章" : "檢視草稿頁面"}</Link>
          </>
        )}
      </p>
      <h1>{post ? titles.editTitle : titles.createTitle}</h1>
      <p>
        目前狀態：<strong>{post ? (published ? "已發表" : "草稿") : "尚未儲存"}</strong>
        {dirty && "（有尚未儲存的修改）"}
      </p>
    </>
  );
}
