import { Form, Link } from "react-router";
import { ResultNotice } from "~/components/result-notice";
import type { PageIntro } from "~content/types";
import { voteAbility } from "./vote-button";
import { WishCard } from "./wish-card";
import type { FormResult } from "~/lib/form-result";
import { WishForm } from "./wish-form";
import { WishStyles } from "./wish-styles";
import { boardHref, signInHref } from "./wish-paths";
import { orderLabels, statusLabels, wishLimits, wishOrders, wishStatuses, type BoardQuery, type VoterStanding, type Wish, type WishStatus } from "./wish-rules";

export interface BoardData {
  content: { intro: PageIntro; howItWorks: string[]; signInPrompt: string };
  query: BoardQuery;
  wishes: Wish[];
  total: number;
  counts: Record<WishStatus | "all", number>;
  voted: string[];
  own: string[];
  /** Who is signed in, as far as voting goes (null: signed out). */
  standing: VoterStanding | null;
  deleted: boolean;
}

/** The public board: make a wish, filter and order, vote, page through. Every control works without JavaScript. */
export function WishBoard({ data, problem }: { data: BoardData; problem: FormResult | null }) {
  const { content, query, wishes, total, counts, voted, own, standing } = data;
  const pageCount = Math.max(1, Math.ceil(total / wishLimits.pageSize));
  const here = boardHref(query);
  return (
    <main className="page">
      <WishStyles />
      <header className="wishes-intro">
        <h1>{content.intro.title}</h1>
        <p>{content.intro.lead}</p>
      </header>
      {data.deleted && (
        <ResultNotice tone="done" className="wish-notice">
          你的願望已經刪除。
        </ResultNotice>
      )}
      <div className="wishes-layout">
        {/* First on a phone, so a parent finds it before the list; beside the list on a wide screen. */}
        <section className="wish-panel wishes-layout__form" aria-labelledby="make-wish-heading">
          <h2 id="make-wish-heading">許下願望</h2>
          {standing ? (
            <WishForm intent="create" action="/wishing-well" problem={problem} submitLabel="送出願望" suggestSimilar />
          ) : (
            <>
              {problem?.formError && (
                <p className="wish-error" role="alert">
                  {problem.formError}
                </p>
              )}
              <p>{content.signInPrompt}</p>
              <p>
                <Link className="button button--primary" to={signInHref(here)}>
                  登入後許願
                </Link>
              </p>
            </>
          )}
        </section>
        <section className="wishes-layout__list" aria-labelledby="wish-list-heading">
          <h2 id="wish-list-heading" className="visually-hidden">
            願望列表
          </h2>
          <Form method="get" action="/wishing-well" role="search" className="wish-search">
            <label htmlFor="wish-search">搜尋願望</label>
            <input id="wish-search" name="q" type="search" defaultValue={query.q} maxLength={60} placeholder="例如：深色模式" />
            {query.status && <input type="hidden" name="status" value={query.status} />}
            {query.order !== "newest" && <input type="hidden" name="order" value={query.order} />}
            <button type="submit" className="button">
              搜尋
            </button>
          </Form>
          <nav aria-label="願望狀態">
            <ul className="wish-filter">
              {[null, ...wishStatuses].map((status) => (
                <li key={status ?? "all"}>
                  <Link to={boardHref({ ...query, status, page: 1 })} aria-current={status === query.status ? "page" : undefined}>
                    {status ? statusLabels[status] : "全部"}（{counts[status ?? "all"]}）
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label="排序">
            <ul className="wish-filter">
              {wishOrders.map((order) => (
                <li key={order}>
                  <Link to={boardHref({ ...query, order, page: 1 })} aria-current={order === query.order ? "page" : undefined}>
                    {orderLabels[order]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <p className="wish-meta" role="status">
            {query.q ? (
              <>
                找到 {total} 個符合「{query.q}」的願望 <Link to={boardHref({ ...query, q: "", page: 1 })}>清除搜尋</Link>
              </>
            ) : (
              `共 ${total} 個願望`
            )}
          </p>
          {wishes.length ? (
            <ul className="wish-list">
              {wishes.map((wish) => (
                <li key={wish.id}>
                  <WishCard
                    wish={wish}
                    voted={voted.includes(wish.id)}
                    ability={voteAbility(standing, own.includes(wish.id))}
                    back={here}
                  />
                </li>
              ))}
            </ul>
          ) : (
            <p>{emptyBoardText(query)}</p>
          )}
          {pageCount > 1 && (
            <nav className="wish-pagination" aria-label="分頁">
              {query.page > 1 && (
                <Link to={boardHref({ ...query, page: query.page - 1 })} rel="prev">
                  上一頁
                </Link>
              )}
              <span>
                第 {query.page} / {pageCount} 頁
              </span>
              {query.page < pageCount && (
                <Link to={boardHref({ ...query, page: query.page + 1 })} rel="next">
                  下一頁
                </Link>
              )}
            </nav>
          )}
        </section>
        <section className="wish-panel wishes-layout__rules" aria-labelledby="wish-rules-heading">
          <h2 id="wish-rules-heading">怎麼運作</h2>
          <ul>
            {content.howItWorks.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}

function emptyBoardText(query: BoardQuery): string {
  if (query.q) return `沒有符合「${query.q}」的願望。換個說法試試，或許下這個新願望吧！`;
  if (query.status) return `目前沒有「${statusLabels[query.status]}」的願望。`;
  return "還沒有人許願，來許下第一個願望吧！";
}
