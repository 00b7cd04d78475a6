import { formatDate } from "./format";
import { PageIntro } from "~/features/pages/page-intro";
import { Prose } from "./prose";

/** Privacy policy or terms: a Markdown document with its last update date. */
export function LegalPage({ title, summary, updated, html }: { title: string; summary: string; updated: string; html: string }) {
  return (
    <main className="page page--narrow">
      <PageIntro title={title} lead={summary}>
        <p className="article-meta">
          最後更新：<time dateTime={updated}>{formatDate(updated)}</time>
        </p>
      </PageIntro>
      <Prose html={html} />
    </main>
  );
}
