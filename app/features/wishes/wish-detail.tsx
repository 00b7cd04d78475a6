import { Form, Link } from "react-router";
import type { WishDetail } from "./wish-service.server";
import { StatusBadge, TeamWords, formatWishDate } from "./wish-card";
import { TeamPanel } from "./team-panel";
import { VoteButton, voteAbility } from "./vote-button";
import type { FormResult } from "~/lib/form-result";
import { WishForm } from "./wish-form";
import { WishStyles } from "./wish-styles";
import { wishLimits, type VoterStanding } from "./wish-rules";
import { wishPath } from "./wish-paths";

export interface DetailData extends WishDetail {
  /** Who is signed in, as far as voting goes (null: signed out). */
  standing: VoterStanding | null;
  editor: boolean;
  /** The permalink on the canonical origin, for sharing. */
  url: string;
}

/** A wish's permalink page: the wish, its vote, the author's edit and delete, and the team panel for editors. */
export function WishDetailPage({ data, problem }: { data: DetailData; problem: FormResult | null }) {
  const { wish, mergedInto, hidden, voted, own, editable, standing, editor, url } = data;
  const here = wishPath(wish.id);
  return (
    <main className="page">
      <WishStyles />
      <p>
        <Link to="/wishing-well">← 回到許願池</Link>
      </p>
      <div className="wishes-layout">
        <article className="wish-detail">
          {hidden && (
            <p className="wish-notice" role="status">
              這個願望已被團隊隱藏，只有團隊看得到。
            </p>
          )}
          {mergedInto ? (
            <p className="wish-notice" role="status">
              這個願望已經合併到「<Link to={wishPath(mergedInto.id)}>{mergedInto.title}</Link>」，票數也一起移過去了，請到那裡投票。
            </p>
          ) : null}
          <p className="wish-meta">
            <StatusBadge wish={wish} />
            <time dateTime={wish.createdAt}>{formatWishDate(wish.createdAt)}</time>
            {own && <span>你的願望</span>}
          </p>
          <h1>{wish.title}</h1>
          {wish.body && <p className="wish-text">{wish.body}</p>}
          <TeamWords wish={wish} />
          <div className="wish-actions">
            {!mergedInto && (
              <VoteButton
                wishId={wish.id}
                title={wish.title}
                voted={voted}
                voteCount={wish.voteCount}
                ability={voteAbility(standing, own)}
                back={here}
              />
            )}
            <a href={`https://social-plugins.line.me/lineit/share?url=${encodeURIComponent(url)}`} target="_blank" rel="noopener noreferrer">
              分享到 LINE
            </a>
          </div>
          {problem?.formError && !["edit", "status", "reply", "merge"].includes(problem.intent ?? "") && (
            <p className="wish-error" role="alert">
              {problem.formError}
            </p>
          )}
        </article>
        {(own || editor) && (
          <aside>
            {own && (
              <section className="wish-panel" aria-labelledby="own-wish-heading">
                <h2 id="own-wish-heading">你的願望</h2>
                {editable ? (
                  <WishForm
                    intent="edit"
                    action={here}
                    initial={{ title: wish.title, body: wish.body }}
                    problem={problem?.intent === "edit" ? problem : null}
                    submitLabel="儲存修改"
                  />
                ) : (
                  <p>許願 {wishLimits.editWindowMinutes} 分鐘後就不能再修改內容了，不過你隨時可以刪除它。</p>
                )}
                <DeleteWish voteCount={wish.voteCount} hasReply={Boolean(wish.teamReply)} />
              </section>
            )}
            {editor && <TeamPanel wish={wish} hidden={hidden} />}
          </aside>
        )}
      </div>
    </main>
  );
}

/**
 * 刪除這個願望 asks before it deletes (without JavaScript too: a <details>): it says what goes with the wish, and
 * only 確定刪除 posts the form.
 */
function DeleteWish({ voteCount, hasReply }: { voteCount: number; hasReply: boolean }) {
  const goesWith = [voteCount > 0 ? `它的 ${voteCount} 票` : null, hasReply ? "團隊的回覆" : null].filter(Boolean).join("和");
  return (
    <details className="wish-delete">
      <summary className="button button--danger">刪除這個願望</summary>
      <div className="wish-delete__confirm" role="group" aria-label="確認刪除">
        <p>確定要刪除嗎？{goesWith ? `願望和${goesWith}會一起刪除，` : "刪除後"}無法復原。</p>
        <Form method="post" className="wish-actions">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="button button--danger">
            確定刪除
          </button>
        </Form>
      </div>
    </details>
  );
}
