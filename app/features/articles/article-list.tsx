import { Link } from "react-router";
import { Pagination } from "~/components/pagination";
import { ArticleCard } from "./article-card";
import { collectionLabels, listHref } from "./collection-labels";
import { ContentNotFound } from "./content-not-found";
import { PageIntro } from "~/features/pages/page-intro";
import type { PageIntro as Intro } from "~content/types";
import type { ArticleListPage, CollectionName } from "./article-types";

interface Props {
  collection: CollectionName;
  intro: Intro;
  listing: ArticleListPage | null;
}

/** A Markdown collection as a list: category filter, cards, pagination (all plain links, no script needed). */
export function ArticleList({ collection, intro, listing }: Props) {
  const { basePath, name } = collectionLabels[collection];
  if (!listing) return <ContentNotFound title="找不到這一頁" backTo={basePath} backLabel={name} />;
  const { items, categories, category, page, pageCount } = listing;
  return (
    <main className="page">
      <PageIntro title={intro.title} lead={intro.lead} />
      <nav className="category-filter" aria-label="文章分類">
        <ul>
          {[null, ...categories].map((option) => (
            <li key={option ?? ""}>
              <Link to={listHref(collection, { category: option })} aria-current={option === category ? "page" : undefined}>
                {option ?? "全部"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ul className="card-grid">
        {items.map((article, index) => (
          <li key={article.slug}>
            <ArticleCard article={article} href={`${basePath}/${article.slug}`} eager={index === 0} />
          </li>
        ))}
      </ul>
      {pageCount > 1 && <Pagination page={page} pageCount={pageCount} hrefFor={(number) => listHref(collection, { category, page: number })} />}
    </main>
  );
}
