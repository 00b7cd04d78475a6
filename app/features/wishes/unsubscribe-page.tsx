import { Form, Link } from "react-router";
import { WishStyles } from "./wish-styles";

/** Where a notice's unsubscribe link lands: one button, then a plain confirmation. */
export function UnsubscribePage({ token, done }: { token: string; done: boolean | null }) {
  return (
    <main className="page">
      <WishStyles />
      <header className="wishes-intro">
        <h1>取消許願池通知</h1>
        <p>團隊改變你的願望狀態時，我們會寄信通知你。</p>
      </header>
      {done === true ? (
        <p className="wish-notice" role="status">
          已經取消，之後不會再收到許願池的通知信。
        </p>
      ) : done === false ? (
        <p className="wish-error" role="alert">
          這個取消連結無效，可能已經失效或不完整。請直接使用信裡的連結，或寫信給我們。
        </p>
      ) : (
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary">
            取消通知
          </button>
        </Form>
      )}
      <p>
        <Link to="/wishing-well">回到許願池</Link>
      </p>
    </main>
  );
}
