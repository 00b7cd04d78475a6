import { useEffect, useState } from "react";
import { useScripted } from "~/components/use-scripted";
import { Form, useActionData, useNavigation, useRevalidator } from "react-router";
import { AuthError, authError } from "~/features/auth";
import { FormNotice } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import type { PasskeyListItem, PasskeySettings } from "./second-factor-shapes";
import { PageIntro } from "~/features/pages/page-intro";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import { SignInPrompt } from "./sign-in-prompt";
import { AccountFormAlert } from "./recent-sign-in-alert";
import "./account-security.css";

export const passkeySettingsPath = "/account/passkeys";

/**
 * 密碼金鑰: the account's passkeys, each renamed or removed with a plain POST form (no JavaScript needed), and a
 * button that creates one on this device. Creating a passkey is the one thing here that needs JavaScript: the
 * browser makes the key pair through its WebAuthn API, which only a script can call.
 */
export function PasskeysPage(props: PasskeySettings) {
  return (
    <main className="page page--narrow">
      <PageIntro
        title="密碼金鑰"
        lead="用手機或電腦的指紋、臉部辨識或螢幕鎖定登入，不必輸入密碼。密碼金鑰只存在你的裝置上，無法被釣魚網站騙走。"
      />
      {props.account ? (
        <>
          <AddPasskey />
          <PasskeyList passkeys={props.account.passkeys} />
          <PasskeySignals account={props.account} />
        </>
      ) : (
        <SignInPrompt id="passkeys-sign-in" title="登入後管理密碼金鑰" text="登入帳號後，就能在這裡新增、改名或移除密碼金鑰。登入完成會自動回到這一頁。" returnTo={passkeySettingsPath} />
      )}
    </main>
  );
}

/**
 * Each time the list is shown (after a removal too, with or without JavaScript at the removal), the browser hears
 * which passkeys still count and the account's current name (passkey-signals.ts).
 */
function PasskeySignals({ account }: { account: Extract<PasskeySettings, { account: object }>["account"] }) {
  const credentialIds = account.passkeys.map((passkey) => passkey.credentialId).join(" ");
  const { userId, email, displayName } = account;
  useEffect(() => {
    void import("./passkey-signals").then(({ signalPasskeys }) =>
      signalPasskeys({ userId, name: email, displayName }, credentialIds ? credentialIds.split(" ") : []),
    );
  }, [userId, email, displayName, credentialIds]);
  return null;
}

function AddPasskey() {
  const revalidator = useRevalidator();
  const scripted = useScripted();
  const [name, setName] = useState("");
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<FormResult | null>(null);
  const add = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    setOutcome(null);
    void import("~/features/sign-in/passkey-client")
      .then((client) => client.addPasskey(name))
      .then(async () => {
        setName("");
        setOutcome({ done: true, notice: "已新增密碼金鑰。下次登入時，在登入頁選「使用密碼金鑰登入」即可。" });
        await revalidator.revalidate();
      })
      .catch((error: unknown) => {
        const refused = error instanceof AuthError ? error : authError("auth/invalid-passkey");
        setOutcome({ formError: refused.message, code: refused.code });
      })
      .finally(() => setPending(false));
  };

  // The same form with and without JavaScript (the login screen's passkey button does the same): when the page's
  // scripts arrive nothing below moves, so a tap on 改名 or 移除 meanwhile lands where it was aimed.
  return (
    <section className="page-section" aria-labelledby="passkey-add">
      <h2 id="passkey-add">新增密碼金鑰</h2>
      <form className="card auth-form security-form" onSubmit={add}>
        <FormNotice message={outcome?.notice ?? null} />
        <AccountFormAlert outcome={outcome ?? undefined} returnTo={passkeySettingsPath} />
        <div className="auth-field">
          <label htmlFor="passkey-name">名稱（選填）</label>
          <input id="passkey-name" name="name" maxLength={50} placeholder="例如：我的 iPhone" value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <button type="submit" className="button button--primary" disabled={!scripted || pending}>
          {pending ? "等待裝置確認…" : "新增密碼金鑰"}
        </button>
        <noscript>
          <p>新增密碼金鑰需要開啟瀏覽器的 JavaScript：密碼金鑰由你的裝置產生，網頁只能透過 JavaScript 請瀏覽器建立。下方的改名與移除不需要 JavaScript。</p>
        </noscript>
      </form>
    </section>
  );
}

function PasskeyList({ passkeys }: { passkeys: PasskeyListItem[] }) {
  const answered = useActionData() as FormResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData : undefined;
  return (
    <section className="page-section" aria-labelledby="passkey-list">
      <h2 id="passkey-list">你的密碼金鑰</h2>
      <FormNotice message={answered?.done && !busy ? (answered.notice ?? null) : null} />
      <AccountFormAlert outcome={answered?.intent === "passkeys" ? answered : undefined} returnTo={passkeySettingsPath} />
      {passkeys.length === 0 ? <p>還沒有密碼金鑰。</p> : null}
      <ul className="device-list">
        {passkeys.map((passkey) => {
          const own = answered?.intent === `rename:${passkey.id}` ? answered : undefined;
          return (
            <li key={passkey.id} className="card device">
              <div id={`passkey-${passkey.id}`}>
                <p className="device__name">{passkey.name}</p>
                <dl className="device__times">
                  <dt>新增時間</dt>
                  <dd>
                    <time dateTime={passkey.createdAt}>{formatTaiwanDateTime(passkey.createdAt)}</time>
                  </dd>
                  <dt>最近使用</dt>
                  <dd>{passkey.lastUsedAt ? <time dateTime={passkey.lastUsedAt}>{formatTaiwanDateTime(passkey.lastUsedAt)}</time> : "尚未使用"}</dd>
                </dl>
                {passkey.backedUp ? <p className="device-list__note">已同步到你的其他裝置（例如 iCloud 鑰匙圈或 Google 密碼管理工具）。</p> : null}
              </div>
              <Form method="post" className="auth-form">
                <input type="hidden" name="intent" value="rename" />
                <input type="hidden" name="id" value={passkey.id} />
                <div className="auth-field">
                  <label htmlFor={`rename-${passkey.id}`}>新名稱</label>
                  <input id={`rename-${passkey.id}`} name="name" maxLength={50} required defaultValue={passkey.name}
                    aria-invalid={own?.fieldErrors?.name ? true : undefined} aria-describedby={own?.fieldErrors?.name ? `rename-${passkey.id}-error` : undefined} />
                  {own?.fieldErrors?.name ? (
                    <p id={`rename-${passkey.id}-error`} className="auth-field__error">
                      {own.fieldErrors.name}
                    </p>
                  ) : null}
                </div>
                <button type="submit" className="button" aria-describedby={`passkey-${passkey.id}`}>
                  改名
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={passkey.id} />
                <button type="submit" className="button" aria-describedby={`passkey-${passkey.id}`} disabled={busy?.get("id") === passkey.id}>
                  移除
                </button>
              </Form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
