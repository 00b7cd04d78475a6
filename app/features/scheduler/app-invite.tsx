import { Link } from "react-router";

/** A calm, single pointer to the app for parents who want more; shown once, never as a pop-up. */
export function AppInvite({ appUrl }: { appUrl: string | null }) {
  return (
    <aside className="app-invite no-print" aria-labelledby="app-invite-heading">
      <h2 id="app-invite-heading">想讓孩子自己在手機上打勾？</h2>
      <p>
        任務小勇士 App 把任務表變成孩子的冒險：完成任務就能得到星星和點數，還能換取你們一起約定的獎勵。
        家裡有好幾個孩子也能分開管理。
      </p>
      {/* Without an app the way on is an account (sign-up), never a placeholder address. */}
      {appUrl ? (
        <a className="button button--primary" href={appUrl} target="_blank" rel="noopener">
          立即開始
          <span className="scheduler-sr-only">（在新分頁開啟）</span>
        </a>
      ) : (
        <Link className="button button--primary" to="/signup">
          立即開始
        </Link>
      )}
    </aside>
  );
}
