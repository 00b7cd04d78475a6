import { Link } from "react-router";
import { collectionLabels, listHref } from "./collection-labels";
import { ContentNotFound } from "./content-not-found";
import { formatDate } from "./format";
import { PageIntro } from "~/features/pages/page-intro";
import { Prose } from "./prose";
import type { ArticleDetail as Article, CollectionName } from "./article-types";

/** One article of a Markdown collection, with its reading time and links to the older and newer ones. */
export function ArticleDetail({ collection, article }: { collection: CollectionName; article: Article | null }) {
  const { basePath, name, notFound } = collectionLabels[collection];
  if (!article) return <ContentNotFound title={notFound} backTo={basePath} backLabel={name} />;
  return (
    <main className="page page--narrow">
      <article>
        <p className="breadcrumb">
          <Link to={basePath}>{name}</Link>
          <span aria-hidden="true"> › </span>
          <Link to={listHref(collection, { category: article.category })}>{article.category}</Link>
        </p>
        <PageIntro title={article.title} lead={article.summary}>
          <p className="article-meta">
            <time dateTime={article.date}>{formatDate(article.date)}</time>
            <span aria-hidden="true"> · </span>
            <span>{article.author}</span>
            <span aria-hidden="true"> · </span>
            <span>閱讀時間約 {article.readingMinutes} 分鐘</span>
          </p>
        </PageIntro>
        <img
          className="article-cover"
          src={article.cover.src}
          width={article.cover.width}
          height={article.cover.height}
          alt=""
          fetchPriority="high"
        />
        <Prose html={article.html} />
      </article>
      <nav className="article-neighbours" aria-label={`更多${name}`}>
        {article.older && (
          <Link to={`${basePath}/${article.older.slug}`} rel="prev">
            <span className="article-neighbours__label">上一篇</span>
            {article.older.title}
          </Link>
        )}
        {article.newer && (
          <Link to={`${basePath}/${article.newer.slug}`} rel="next" className="article-neighbours__next">
            <span className="article-neighbours__label">下一篇</span>
            {article.newer.title}
          </Link>
        )}
      </nav>
    </main>
  );
}
