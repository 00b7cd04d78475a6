import { Link } from "react-router";
import { ContentNotFound } from "./content-not-found";
import { PageIntro } from "~/features/pages/page-intro";
import { Prose } from "./prose";
import type { PageIntro as Intro } from "~content/types";
import type { ArticleLink } from "./article-types";

interface TopicSummary {
  slug: string;
  title: string;
  summary: string;
}

export function LearningIndex({ intro, topics }: { intro: Intro; topics: TopicSummary[] }) {
  return (
    <main className="page">
      <PageIntro title={intro.title} lead={intro.lead} />
      <ul className="feature-grid feature-grid--two">
        {topics.map((topic) => (
          <li key={topic.slug} className="card">
            <h2>
              <Link to={`/learning-resources/${topic.slug}`}>{topic.title}</Link>
            </h2>
            <p>{topic.summary}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}

interface Topic extends TopicSummary {
  html: string;
  related: ArticleLink[];
}

export function LearningTopic({ topic }: { topic: Topic | null }) {
  if (!topic) return <ContentNotFound title="找不到這個主題" backTo="/learning-resources" backLabel="學習資源" />;
  return (
    <main className="page page--narrow">
      <p className="breadcrumb">
        <Link to="/learning-resources">學習資源</Link>
      </p>
      <PageIntro title={topic.title} lead={topic.summary} />
      <Prose html={topic.html} />
      {topic.related.length > 0 && (
        <section className="page-section" aria-labelledby="related-articles">
          <h2 id="related-articles">延伸閱讀</h2>
          <ul>
            {topic.related.map((article) => (
              <li key={article.slug}>
                <Link to={`/blog/${article.slug}`}>{article.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
