import { Form, Link, useActionData } from "react-router";
import { FormAlert } from "~/components/form/form";
import { PageIntro } from "~/features/pages/page-intro";
import { authHref } from "~/features/sign-in/auth-paths";
import type { FormResult } from "~/lib/form-result";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import type { JoinScreen } from "./family-screen-types";
import "./family.css";

/**
 * The invitation page (/account/family/join?token=…): whose family, by whom, until when; the invitee signs in or
 * signs up any way they like (and comes back here), then accepts with a POST form. Opening the link uses nothing up.
 */
export function JoinPage(props: JoinScreen) {
  const answered = useActionData() as FormResult | undefined;
  return (
    <main className="page page--narrow family-page">
      <PageIntro title="加入家庭" />
      {props.invitation ? (
        <section className="card" aria-labelledby="join-family">
          <h2 id="join-family">「{props.invitation.inviterName}」邀請你加入家庭「{props.invitation.familyName}」</h2>
          <p>加入後，你會以家長身分和對方一起管理孩子的資料。邀請在 {formatTaiwanDate(props.invitation.expiresAt)} 到期，只能使用一次。</p>
          <FormAlert message={answered?.formError ?? null} />
          {props.signedIn ? (
            <Form method="post">
              <input type="hidden" name="token" value={props.token} />
              <button type="submit" className="button button--primary">
                接受邀請
              </button>
            </Form>
          ) : (
            <>
              <p>請先登入或註冊（用哪種方式都可以），完成後會回到這一頁。</p>
              <p className="start-links">
                <Link className="button button--primary" to={authHref("/login", props.returnTo)}>
                  登入
                </Link>
                <Link className="button" to={authHref("/signup", props.returnTo)}>
                  免費註冊
                </Link>
              </p>
            </>
          )}
        </section>
      ) : (
        <section className="card" aria-labelledby="join-refused">
          <h2 id="join-refused">無法使用這個邀請</h2>
          {/* Without scripts the page is drawn again after a refused POST: the answer to that POST says it best. */}
          <p role="alert">{answered?.formError ?? props.refusal}</p>
          <p>
            <Link to="/account/family">前往家庭頁面</Link>
          </p>
        </section>
      )}
    </main>
  );
}
