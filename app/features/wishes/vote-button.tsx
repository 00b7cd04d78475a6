import { useState } from "react";
import { Link } from "react-router";
import { authHref, guestUpgradeLabel } from "~/features/sign-in/auth-paths";
import { signInHref, voteApiPath, wishPath } from "./wish-paths";
import type { VoterStanding } from "./wish-rules";

export type VoteAbility = "can-vote" | "own" | "signed-out" | Exclude<VoterStanding, "verified">;

/** What the viewer may do with a wish's vote, from who they are (null: signed out) and whether the wish is theirs. */
export function voteAbility(standing: VoterStanding | null, own: boolean): VoteAbility {
  if (!standing) return "signed-out";
  if (own) return "own";
  return standing === "verified" ? "can-vote" : standing;
}

/** The way to a vote for a signed-in user who may not vote yet: a guest upgrades, an unverified account verifies. */
const wayToVote = (back: string) => ({
  guest: { href: authHref("/signup", back), text: `${guestUpgradeLabel}就能投票` },
  unverified: { href: authHref("/email-verification", back), text: "驗證電子郵件後就能投票" },
});

interface Props {
  wishId: string;
  title: string;
  voted: boolean;
  voteCount: number;
  ability: VoteAbility;
  /** Where a plain form post returns to (the page the button is on). */
  back: string;
}

interface Shown {
  voted: boolean;
  voteCount: number;
}

/**
 * One vote per wish, as a toggle. Without JavaScript it is a POST form to the wish's route action; with it the
 * count changes at once and returns to what it was if the server refuses or the network fails.
 */
export function VoteButton({ wishId, title, voted, voteCount, ability, back }: Props) {
  const [optimistic, setOptimistic] = useState<Shown | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = optimistic ?? { voted, voteCount };
  const count = <span className="vote-button__count">{shown.voteCount}</span>;
  // The accessible name starts with the visible text (count and label, as one string the way it reads on screen),
  // so speech-input users can say what they see (WCAG 2.5.3); the rest tells which wish and what the button does.
  const visible = (label: string) => `${shown.voteCount}${label}，`;

  if (ability === "signed-out") {
    return (
      <Link className="vote-button" to={signInHref(back)} aria-label={`${visible("票")}登入後替「${title}」投票（目前 ${shown.voteCount} 票）`}>
        {count}
        <span className="vote-button__label">票</span>
      </Link>
    );
  }
  if (ability === "own") {
    return (
      <span className="vote-button" aria-label={`你的願望，目前 ${shown.voteCount} 票`} role="img">
        {count}
        <span className="vote-button__label">票</span>
      </span>
    );
  }
  if (ability === "guest" || ability === "unverified") {
    const way = wayToVote(back)[ability];
    return (
      <div className="vote-locked">
        <span className="vote-button" aria-label={`目前 ${shown.voteCount} 票`} role="img">
          {count}
          <span className="vote-button__label">票</span>
        </span>
        <Link to={way.href}>{way.text}</Link>
      </div>
    );
  }

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const before = shown;
    const wanted = !before.voted;
    setOptimistic({ voted: wanted, voteCount: before.voteCount + (wanted ? 1 : -1) });
    setPending(true);
    setError(null);
    try {
      const response = await fetch(voteApiPath(wishId), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ vote: wanted }),
      });
      const body = (await response.json().catch(() => null)) as (Shown & { error?: { message?: string } }) | null;
      if (!response.ok || !body || body.error) throw new VoteError(body?.error?.message);
      setOptimistic({ voted: body.voted, voteCount: body.voteCount });
    } catch (caught) {
      setOptimistic(before);
      setError(caught instanceof VoteError && caught.message ? caught.message : "投票沒有送出，請檢查網路後再試一次。");
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="vote-form" method="post" action={wishPath(wishId)} onSubmit={submit}>
      <input type="hidden" name="intent" value="vote" />
      <input type="hidden" name="vote" value={shown.voted ? "remove" : "add"} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        className="vote-button"
        aria-pressed={shown.voted}
        aria-label={`${visible(shown.voted ? "已投票" : "投一票")}${shown.voted ? "收回投給" : "投票給"}「${title}」（目前 ${shown.voteCount} 票）`}
      >
        {count}
        <span className="vote-button__label">{shown.voted ? "已投票" : "投一票"}</span>
      </button>
      {error && (
        <p className="wish-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

class VoteError extends Error {}
