import { Link } from "react-router";
import { Pagination } from "~/components/pagination";
import { ContentNotFound } from "~/features/articles/content-not-found";
import { PageIntro } from "~/features/pages/page-intro";
import { DevBlogStyles } from "./dev-blog-styles";
import { createHref, devBlogPath, editHref, feedHref, listHref } from "./links";
import { PostCard } from "./post-card";
import type { PostListPage, PostSummary } from "./types";

interface Props {
  texts: { list: { title: string; lead: string }; empty: string; emptyAction: { label: string; href: string } };
  listing: PostListPage | null;
  /** Editors only: the drafts, and a link to write a new post. */
  drafts: PostSummary[] | null;
}

/** `/dev-blog`: published posts newest first, a tag filter by address, plain-link pagination (no script needed). */
export function PostList({ texts, listing, drafts }: Props) {
  if (!listing) return <ContentNotFound title="找不到這一頁" backTo={devBlogPath} backLabel="開發日誌" />;
  const { items, tag, page, pageCount } = listing;
  return (
    <main className="page">
      <DevBlogStyles />
      <PageIntro title={texts.list.title} lead={texts.list.lead} />
      {drafts && <EditorTools drafts={drafts} />}
      {tag !== null && (
        <p>
          標籤「{tag}」的文章 · <Link to={listHref()}>顯示全部文章</Link>
        </p>
      )}
      {items.length === 0 ? (
        <section className="prose" aria-label="目前狀態">
          <p>{tag === null ? texts.empty : "這個標籤還沒有發表的文章。"}</p>
          {tag === null && (
            <p>
              <Link className="button button--primary" to={texts.emptyAction.href}>
                {texts.emptyAction.label}
              </Link>
            </p>
          )}
        </section>
      ) : (
        <ul className="card-grid">
          {items.map((post, index) => (
            <li key={post.id}>
              <PostCard post={post} eager={index === 0} />
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 && <Pagination page={page} pageCount={pageCount} hrefFor={(number) => listHref({ tag, page: number })} />}
      <p className="feed-link">
        <a href={feedHref}>訂閱開發日誌（Atom）</a>
      </p>
    </main>
  );
}

function EditorTools({ drafts }: { drafts: PostSummary[] }) {
  return (
    <section className="dev-blog-tools" aria-labelledby="dev-blog-tools-title">
      <h2 id="dev-blog-tools-title">編輯工具</h2>
      <p>
        <Link className="button button--primary" to={createHref}>
          撰寫新文章
        </Link>
      </p>
      {drafts.length > 0 && (
        <div>
          <p>草稿（只有編輯看得到）：</p>
          <ul>
            {drafts.map((draft) => (
              <li key={draft.id}>
                <Link to={editHref(draft.id)}>{draft.title}</Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
