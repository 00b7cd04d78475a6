import { Link } from "react-router";
import { FormAlert, FormNotice } from "~/components/form/form";
import { PageIntro } from "~/features/pages/page-intro";
import type { AccountCenter } from "./account-forms";
import { EmailSection } from "./email-section";
import { ProfileSection } from "./profile-section";
import { SignInMethodsSection } from "./sign-in-methods-section";
import { SignInPrompt } from "./sign-in-prompt";
import "./account-security.css";

export const accountCenterPath = "/account";

/**
 * 帳號設定 (/account): profile, email, sign-in methods, a copy of one's data, and the way to the security screen
 * and to deletion. Every form is a POST form that works before (or without) the JavaScript.
 */
export function AccountCenterPage(props: AccountCenter) {
  return (
    <main className="page page--narrow">
      <PageIntro title="帳號設定" lead="管理你的個人資料、電子郵件和登入方式，也可以下載你的資料。" />
      {props.account ? (
        <>
          <FormNotice message={props.notice} />
          <FormAlert message={props.alert} />
          <ProfileSection displayName={props.account.displayName} passkeyAccount={props.account.passkeyAccount} photoURL={props.account.photoURL} returnTo={accountCenterPath} />
          <EmailSection email={props.account.email} emailVerified={props.account.emailVerified} returnTo={accountCenterPath} />
          <SignInMethodsSection methods={props.account.signInMethods} hasEmail={props.account.email !== null} phoneNumber={props.account.phoneNumber} policy={props.policy} returnTo={accountCenterPath} />
          <section className="page-section" aria-labelledby="my-data">
            <h2 id="my-data">我的資料</h2>
            <p>你在這裡留下的個人資料、登入方式、登入中的裝置、許願與投票、文章和檔案清單，都可以查看或下載一份。</p>
            <p className="start-links">
              <Link className="button" to="/account/data">
                查看我的資料
              </Link>
              <a className="button" href="/account/data.json" download>
                下載 JSON 檔
              </a>
            </p>
          </section>
          <section className="page-section" aria-labelledby="more-settings">
            <h2 id="more-settings">安全與帳號</h2>
            <p className="start-links">
              <Link className="button" to="/account/security">
                帳號安全（密碼、登入中的裝置）
              </Link>
              <Link className="button" to="/account/two-step">
                兩步驟驗證
              </Link>
              <Link className="button" to="/account/passkeys">
                密碼金鑰
              </Link>
              <Link className="button" to="/account/family">
                家庭（家長、孩子、平板）
              </Link>
              <Link className="button" to="/account-deletion">
                刪除帳號
              </Link>
            </p>
          </section>
        </>
      ) : (
        <SignInPrompt
          id="account-sign-in"
          title="登入後管理帳號設定"
          text={
            props.guest
              ? "你正以訪客身分試用，訪客帳號沒有個人資料可以設定。註冊或登入帳號後，就能在這裡管理個人資料、電子郵件和登入方式。"
              : "登入帳號後，就能在這裡管理個人資料、電子郵件和登入方式。登入完成會自動回到這一頁。"
          }
          returnTo={accountCenterPath}
        />
      )}
    </main>
  );
}
