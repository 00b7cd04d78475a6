import { PageIntro } from "./page-intro";
import type { IronmanContent } from "~content/types";

export function IronmanPage({ intro, seriesUrl, articles }: IronmanContent) {
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead}>
        <p>
          <a href={seriesUrl} target="_blank" rel="noopener noreferrer">
            前往 iThome 鐵人賽
          </a>
        </p>
      </PageIntro>
      <ol className="ironman-list">
        {articles.map((article) => (
          <li key={article.day} className="ironman-list__item">
            <p className="ironman-list__day">第 {article.day} 天</p>
            <h2 className="ironman-list__title">
              <a href={article.url} target="_blank" rel="noopener noreferrer">
                {article.title}
              </a>
            </h2>
            <p>{article.summary}</p>
          </li>
        ))}
      </ol>
    </main>
  );
}
