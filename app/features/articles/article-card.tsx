import { Link } from "react-router";
import { formatDate } from "./format";
import type { ArticleSummary } from "./article-types";

/** One article in a list: cover, title (the link), date, category and summary. */
export function ArticleCard({ article, href, eager }: { article: ArticleSummary; href: string; eager: boolean }) {
  return (
    <article className="card article-card">
      <img
        className="article-card__cover"
        src={article.cover.src}
        width={article.cover.width}
        height={article.cover.height}
        alt=""
        loading={eager ? "eager" : "lazy"}
        fetchPriority={eager ? "high" : "auto"}
        decoding="async"
      />
      <div className="article-card__body">
        <h2 className="article-card__title">
          <Link to={href}>{article.title}</Link>
        </h2>
        <p className="article-meta">
          <time dateTime={article.date}>{formatDate(article.date)}</time>
          <span aria-hidden="true"> · </span>
          <span>{article.category}</span>
        </p>
        <p>{article.summary}</p>
      </div>
    </article>
  );
}
