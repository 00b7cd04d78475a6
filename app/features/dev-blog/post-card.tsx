import { Link } from "react-router";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import { postHref } from "./links";
import { TagLinks } from "./tag-links";
import type { PostSummary } from "./types";

/** One post in the list: cover (when it has one), title (the link), date, reading time, tags and summary. */
export function PostCard({ post, eager }: { post: PostSummary; eager: boolean }) {
  return (
    <article className="card article-card">
      {post.coverUrl && (
        <img className="post-cover" src={post.coverUrl} alt="" loading={eager ? "eager" : "lazy"} decoding="async" />
      )}
      <div className="article-card__body">
        <h2 className="article-card__title">
          <Link to={postHref(post.id)}>{post.title}</Link>
        </h2>
        <p className="article-meta">
          {post.publishedAt && <time dateTime={post.publishedAt}>{formatTaiwanDate(post.publishedAt)}</time>}
          <span aria-hidden="true"> · </span>
          <span>閱讀時間約 {post.readingMinutes} 分鐘</span>
        </p>
        <TagLinks tags={post.tags} />
        <p>{post.summary}</p>
      </div>
    </article>
  );
}
