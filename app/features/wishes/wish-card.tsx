import { Link } from "react-router";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import { VoteButton, type VoteAbility } from "./vote-button";
import { statusLabels, type Wish } from "./wish-rules";
import { wishPath } from "./wish-paths";

/** The site's one date style, 「2026 年 11 月 26 日」, in Taiwan. */
export const formatWishDate = formatTaiwanDate;

export function StatusBadge({ wish }: { wish: Pick<Wish, "status"> }) {
  return <span className={`wish-status wish-status--${wish.status}`}>{statusLabels[wish.status]}</span>;
}

/** The team's short reply, and the reason when a wish is set aside. Plain text like the wish itself. */
export function TeamWords({ wish }: { wish: Pick<Wish, "teamReply" | "statusReason" | "status"> }) {
  if (!wish.teamReply && !(wish.status === "declined" && wish.statusReason)) return null;
  return (
    <div className="wish-reply">
      {wish.status === "declined" && wish.statusReason && <p className="wish-text">暫不考慮的原因：{wish.statusReason}</p>}
      {wish.teamReply && <p className="wish-text">團隊回覆：{wish.teamReply}</p>}
    </div>
  );
}

/** One wish on the board: its vote, title (the permalink), text, status and the team's words. */
export function WishCard({ wish, voted, ability, back }: { wish: Wish; voted: boolean; ability: VoteAbility; back: string }) {
  return (
    <article className="wish-card">
      <VoteButton wishId={wish.id} title={wish.title} voted={voted} voteCount={wish.voteCount} ability={ability} back={back} />
      <div className="wish-card__main">
        <h2>
          <Link to={wishPath(wish.id)}>{wish.title}</Link>
        </h2>
        {wish.body && <p className="wish-text">{wish.body}</p>}
        <p className="wish-meta">
          <StatusBadge wish={wish} />
          <time dateTime={wish.createdAt}>{formatWishDate(wish.createdAt)}</time>
          {ability === "own" && <span>你的願望</span>}
        </p>
        <TeamWords wish={wish} />
      </div>
    </article>
  );
}
