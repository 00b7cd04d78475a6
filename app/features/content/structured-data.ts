import type { ArticleDetail, FaqGroup } from "./types";

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

/** schema.org FAQPage with every question of every group. */
export function faqStructuredData(groups: FaqGroup[]) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: groups.flatMap((group) =>
      group.questions.map((item) => ({
        "@type": "Question",
        name: item.question,
        acceptedAnswer: { "@type": "Answer", text: item.answer.join("\n") },
      })),
    ),
  };
}
