import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AccountSecurity } from "~/features/account/account-security";
import { PageIntro } from "~/features/pages/page-intro";
import { DeviceList } from "./device-list";
import { ActivityList } from "./activity-list";
import { PasswordChange } from "./password-change";
import { SignInPrompt } from "./sign-in-prompt";
import { twoStepSettingsPath } from "./two-step-page";
import { passkeySettingsPath } from "./passkeys-page";
// A stylesheet of its own (not inline): a link is allowed by the CSP after a navigation from a prerendered page too.
import "./account-security.css";

export const accountSecurityPath = "/account/security";

/**
 * 帳號安全, for a signed-in account: change the password, see the signed-in devices and sign them out. A visitor
 * or a guest (no password, one browser) is asked to sign in or sign up and comes back here.
 */
export function AccountSecurityPage(props: AccountSecurity & { children?: ReactNode }) {
  return (
    <main className="page page--narrow">
      <PageIntro title="帳號安全" lead="更改你的密碼，查看哪些裝置正登入你的帳號，並登出不再使用的裝置。" />
      {props.account ? (
        <>
          <p className="security-account">
            目前登入的帳號：<strong>{props.account.email ?? props.account.phoneNumber}</strong>
          </p>
          <nav className="account-links" aria-label="更多登入安全設定">
            <Link to={twoStepSettingsPath}>兩步驟驗證</Link>
            <Link to={passkeySettingsPath}>密碼金鑰</Link>
          </nav>
          <PasswordChange email={props.account.email} username={props.account.email ?? props.account.phoneNumber ?? ""} hasPassword={props.account.hasPassword} policy={props.policy} />
          <DeviceList devices={props.account.devices} />
          {props.children}
          <ActivityList activity={props.account.activity} hasPassword={props.account.hasPassword} />
        </>
      ) : (
        <SignInPrompt
          id="security-sign-in"
          title="登入後管理帳號安全"
          text={
            props.guest
              ? "你正以訪客身分試用，訪客帳號沒有密碼，也只在這個瀏覽器上使用。註冊或登入帳號後，就能在這裡更改密碼、管理登入中的裝置。"
              : "登入帳號後，就能在這裡更改密碼，並查看、登出登入中的裝置。登入完成會自動回到這一頁。"
          }
          returnTo={accountSecurityPath}
        />
      )}
    </main>
  );
}
