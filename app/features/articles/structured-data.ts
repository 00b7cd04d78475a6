import type { ArticleDetail } from "./article-types";

interface Site {
  siteUrl: string;
  productName: string;
}

/** schema.org BlogPosting or NewsArticle for one article. */
export function articleStructuredData(
  type: "BlogPosting" | "NewsArticle",
  article: ArticleDetail,
  url: string,
  site: Site,
) {
  return {
    "@context": "https://schema.org",
    "@type": type,
    headline: article.title,
    description: article.summary,
    datePublished: article.date,
    dateModified: article.date,
    inLanguage: "zh-Hant-TW",
    articleSection: article.category,
    image: new URL(article.cover.src, site.siteUrl).href,
    mainEntityOfPage: url,
    author: { "@type": "Organization", name: article.author },
    publisher: { "@type": "Organization", name: site.productName, url: site.siteUrl },
  };
}
