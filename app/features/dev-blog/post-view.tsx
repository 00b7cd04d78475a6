import { Link } from "react-router";
import { ContentNotFound } from "~/features/articles/content-not-found";
import { PageIntro } from "~/features/pages/page-intro";
import { Prose } from "~/features/articles/prose";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import { DevBlogStyles } from "./dev-blog-styles";
import { devBlogPath, editHref } from "./links";
import { TagLinks } from "./tag-links";
import type { PostPage } from "./types";

export const teamAuthor = "開發團隊";

/** `/dev-blog/:id`: one post; editors also see its status and a link to edit it. */
export function PostView({ post, canEdit, notFoundTitle }: { post: PostPage | null; canEdit: boolean; notFoundTitle: string | null }) {
  if (!post) return <ContentNotFound title={notFoundTitle ?? "找不到這篇開發日誌"} backTo={devBlogPath} backLabel="開發日誌" />;
  return (
    <main className="page page--narrow">
      <DevBlogStyles />
      <article>
        <p className="breadcrumb">
          <Link to={devBlogPath}>開發日誌</Link>
        </p>
        {canEdit && (
          <p className="editor-actions">
            {post.status === "draft" && <span className="status-badge">草稿（只有編輯看得到）</span>}
            <Link className="button" to={editHref(post.id)}>
              編輯這篇
            </Link>
          </p>
        )}
        <PageIntro title={post.title} lead={post.summary}>
          <p className="article-meta">
            {post.publishedAt && (
              <>
                <time dateTime={post.publishedAt}>{formatTaiwanDate(post.publishedAt)}</time>
                <span aria-hidden="true"> · </span>
              </>
            )}
            <span>{post.authorName ?? teamAuthor}</span>
            <span aria-hidden="true"> · </span>
            <span>閱讀時間約 {post.readingMinutes} 分鐘</span>
          </p>
          <TagLinks tags={post.tags} />
        </PageIntro>
        {post.coverUrl && <img className="post-cover" src={post.coverUrl} alt="" fetchPriority="high" />}
        <Prose html={post.html} />
      </article>
    </main>
  );
}
