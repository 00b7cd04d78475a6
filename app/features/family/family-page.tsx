import { useState } from "react";
import { useScripted } from "~/components/use-scripted";
import { Form, Link } from "react-router";
import { Field, FormNotice } from "~/components/form/form";
import { PageIntro } from "~/features/pages/page-intro";
import { authHref } from "~/features/sign-in/auth-paths";
import { formatTaiwanDate } from "~/lib/taiwan-time";
import { AnswerLines, AvatarPicker, ButtonForm, useAnswer } from "./family-forms";
import { avatars, roleLabels, type FamilyChild, type FamilyView } from "./family-rules";
import type { ChildDeviceView, FamilyScreen, OpenInvitationView } from "./family-screen-types";
import "./family.css";
import { givenEmail } from "~/features/auth";
import { usePublicEnv } from "~/config/use-public-env";

export const familyScreenPath = "/account/family";

/**
 * 家庭 (/account/family): the family's name, its parents, invitations and children, each changed with a plain POST
 * form, so the screen works without JavaScript (only "copy the link" needs it). One column, usable at 375 px.
 */
export function FamilyPage(props: FamilyScreen) {
  return (
    <main className="page page--narrow family-page">
      <PageIntro title="家庭" lead="和另一位家長一起管理孩子的資料，讓孩子的平板加入家庭。" />
      <FormNotice message={props.notice} />
      {!props.signedIn ? (
        <section className="card" aria-labelledby="family-sign-in">
          <h2 id="family-sign-in">登入後管理家庭</h2>
          <p>家庭需要一個帳號（訪客不行）。登入或註冊後會回到這一頁。</p>
          <p className="start-links">
            <Link className="button button--primary" to={authHref("/login", familyScreenPath)}>
              登入
            </Link>
            <Link className="button" to={authHref("/signup", familyScreenPath)}>
              免費註冊
            </Link>
          </p>
        </section>
      ) : props.family ? (
        <>
          <FamilyName family={props.family} />
          <Parents family={props.family} viewerId={props.viewerId} />
          <Invite />
          <Invitations invitations={props.invitations} />
          <Children family={props.family} birthYears={props.birthYears} />
          <AddChild birthYears={props.birthYears} consent={props.consent} />
          <ChildDevices devices={props.devices} />
          <LeaveOrDelete family={props.family} devices={props.devices} />
        </>
      ) : (
        <CreateFamily />
      )}
    </main>
  );
}

function CreateFamily() {
  const { answer } = useAnswer("create-family");
  return (
    <section className="page-section" aria-labelledby="family-create">
      <h2 id="family-create">建立家庭</h2>
      <p>建立家庭後，你就是家庭的擁有者，可以新增孩子、邀請另一位家長。如果另一位家長已經建立了家庭，請他傳邀請連結給你。</p>
      <Form method="post" className="card auth-form">
        <AnswerLines answer={answer} />
        <input type="hidden" name="intent" value="create-family" />
        <Field name="name" label="家庭名稱" maxLength={30} required placeholder="例如：小明的家" defaultValue={answer?.values?.name} error={answer?.fieldErrors?.name} />
        <button type="submit" className="button button--primary">
          建立家庭
        </button>
      </Form>
    </section>
  );
}

function FamilyName({ family }: { family: FamilyView }) {
  const { answer } = useAnswer("rename");
  return (
    <section className="page-section" aria-labelledby="family-name">
      <h2 id="family-name">{family.name}</h2>
      <p>你的身分：{roleLabels[family.role]}</p>
      {family.role === "owner" ? (
        <Form method="post" className="card auth-form">
          <AnswerLines answer={answer} />
          <input type="hidden" name="intent" value="rename" />
          <Field name="name" label="家庭名稱" maxLength={30} required defaultValue={answer?.values?.name ?? family.name} error={answer?.fieldErrors?.name} />
          <button type="submit" className="button">
            更改名稱
          </button>
        </Form>
      ) : null}
    </section>
  );
}

function Parents({ family, viewerId }: { family: FamilyView; viewerId: string | null }) {
  const { answer } = useAnswer("parents");
  return (
    <section className="page-section" aria-labelledby="family-parents">
      <h2 id="family-parents">家長</h2>
      <AnswerLines answer={answer} />
      <ul className="family-list">
        {family.parents.map((parent) => (
          <li key={parent.id} className="card family-item">
            <p className="family-item__name">
              {parent.name || givenEmail(parent.email)}
              {parent.id === viewerId ? "（你）" : ""}
              <span className="device__badge">{roleLabels[parent.role]}</span>
            </p>
            {givenEmail(parent.email) ? <p>{parent.email}</p> : null}
            {family.role === "owner" && parent.id !== viewerId ? (
              <div className="family-item__actions">
                <ButtonForm intent="transfer" fields={{ parentId: parent.id }} label="交給他當擁有者" confirm={`確定要把擁有者交給「${parent.name || givenEmail(parent.email) || "這位家長"}」嗎？`} />
                <ButtonForm intent="remove-parent" fields={{ parentId: parent.id }} label="移出家庭" confirm={`確定要把「${parent.name || givenEmail(parent.email) || "這位家長"}」移出家庭嗎？`} danger />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Invite() {
  const { answer } = useAnswer("invite");
  const link = answer?.invitationLink;
  return (
    <section className="page-section" aria-labelledby="family-invite">
      <h2 id="family-invite">邀請另一位家長</h2>
      <p>邀請連結 7 天內有效，只能使用一次。對方用任何方式登入或註冊後，按「接受邀請」就會加入。</p>
      <Form method="post" className="card auth-form">
        <AnswerLines answer={answer} />
        <input type="hidden" name="intent" value="invite" />
        <Field name="email" type="email" label="對方的電子郵件（選填，填了就寄邀請信）" maxLength={254} autoComplete="off" defaultValue={answer?.done ? "" : answer?.values?.email} error={answer?.fieldErrors?.email} />
        <button type="submit" className="button button--primary">
          建立邀請連結
        </button>
      </Form>
      {link ? <ShareLink link={link} /> : null}
    </section>
  );
}

function ShareLink({ link }: { link: string }) {
  const scripted = useScripted();
  const [copied, setCopied] = useState(false);
  const text = "邀請你加入我們的家庭，一起管理孩子的任務：";
  return (
    <div className="card family-item">
      <label htmlFor="family-invitation-link">邀請連結</label>
      <input id="family-invitation-link" className="family-link" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
      <div className="family-item__actions">
        <a className="button" href={`https://social-plugins.line.me/lineit/share?url=${encodeURIComponent(link)}&text=${encodeURIComponent(text)}`} target="_blank" rel="noopener noreferrer">
          用 LINE 傳送
        </a>
        {/* In the server's HTML too, disabled until the page runs JavaScript: nothing moves when it does. */}
        <button type="button" className="button" disabled={!scripted} onClick={() => void navigator.clipboard.writeText(link).then(() => setCopied(true))}>
          {copied ? "已複製" : "複製連結"}
        </button>
      </div>
      <noscript>
        <p>「複製連結」需要開啟瀏覽器的 JavaScript，也可以選取上面的連結複製。</p>
      </noscript>
    </div>
  );
}

function Invitations({ invitations }: { invitations: OpenInvitationView[] }) {
  const { answer } = useAnswer("invitations");
  return (
    <section className="page-section" aria-labelledby="family-invitations">
      <h2 id="family-invitations">尚未接受的邀請</h2>
      <AnswerLines answer={answer} />
      {invitations.length === 0 ? <p>目前沒有尚未接受的邀請。</p> : null}
      <ul className="family-list">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="card family-item">
            <p className="family-item__name">{invitation.email ?? "用連結分享的邀請"}</p>
            <p>
              {invitation.invitedBy} 在 {formatTaiwanDate(invitation.createdAt)} 建立，{formatTaiwanDate(invitation.expiresAt)} 到期
            </p>
            <ButtonForm intent="cancel-invitation" fields={{ invitationId: invitation.id }} label="取消邀請" />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Children({ family, birthYears }: { family: FamilyView; birthYears: FamilyScreen["birthYears"] }) {
  const { answer } = useAnswer("children");
  return (
    <section className="page-section" aria-labelledby="family-children">
      <h2 id="family-children">孩子</h2>
      <AnswerLines answer={answer} />
      {family.children.length === 0 ? <p>還沒有孩子的資料。</p> : null}
      <ul className="family-list">
        {family.children.map((child) => (
          <ChildItem key={child.id} child={child} birthYears={birthYears} />
        ))}
      </ul>
    </section>
  );
}

/** Every child's tablet, whichever parent approved it; any parent can end one (on 帳號安全 too, posting here). */
export function ChildDevices({ devices, action }: { devices: ChildDeviceView[]; action?: string }) {
  const { answer } = useAnswer("devices");
  const { siteUrl } = usePublicEnv();
  return (
    <section className="page-section" aria-labelledby="family-devices">
      <h2 id="family-devices">孩子的平板</h2>
      <AnswerLines answer={answer} />
      {devices.length === 0 ? (
        <p>
          還沒有平板加入家庭。在平板的 App 上產生代碼，再用手機掃描平板上的 QR 碼，或開啟 <strong>{`${siteUrl}/device`}</strong> 輸入代碼。
        </p>
      ) : null}
      <ul className="family-list">
        {devices.map((device) => (
          <li key={device.id} className="card family-item">
            <p className="family-item__name">{device.appName}</p>
            <p>
              {device.approvedBy} 在 {formatTaiwanDate(device.joinedAt)} 允許
            </p>
            <ButtonForm intent="end-device" fields={{ deviceId: device.id }} label="結束這台平板的登入" confirm={`確定要結束「${device.childName}」這台平板的登入嗎？`} danger action={action} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ChildItem({ child, birthYears }: { child: FamilyChild; birthYears: FamilyScreen["birthYears"] }) {
  const { answer } = useAnswer(`edit-child:${child.id}`);
  return (
    <li className="card family-item">
      <p className="family-item__name">
        <span className="family-avatar" aria-hidden="true">
          {avatars[child.avatar]}
        </span>{" "}
        {child.name}（{child.birthYear} 年生）
      </p>
      <details open={Boolean(answer)}>
        <summary>修改資料</summary>
        <Form method="post" className="auth-form">
          <AnswerLines answer={answer} />
          <input type="hidden" name="intent" value="edit-child" />
          <input type="hidden" name="childId" value={child.id} />
          <ChildFields idPrefix={`child-${child.id}`} values={answer?.values ?? { name: child.name, avatar: child.avatar, birthYear: String(child.birthYear) }} errors={answer?.fieldErrors} birthYears={birthYears} />
          <button type="submit" className="button">
            儲存
          </button>
        </Form>
      </details>
      <ButtonForm intent="remove-child" fields={{ childId: child.id }} label="刪除孩子的資料" confirm={`確定要刪除「${child.name}」的資料嗎？`} danger />
    </li>
  );
}

function ChildFields({ idPrefix, values, errors, birthYears }: { idPrefix: string; values?: Record<string, string>; errors?: Partial<Record<string, string>>; birthYears: FamilyScreen["birthYears"] }) {
  return (
    <>
      <div className="auth-field">
        <label htmlFor={`${idPrefix}-name`}>名字或暱稱</label>
        <input id={`${idPrefix}-name`} name="name" maxLength={20} required defaultValue={values?.name} />
        {errors?.name ? <p className="auth-field__error">{errors.name}</p> : null}
      </div>
      <AvatarPicker name="avatar" chosen={values?.avatar} idPrefix={`${idPrefix}-avatar`} />
      {errors?.avatar ? <p className="auth-field__error">{errors.avatar}</p> : null}
      <div className="auth-field">
        <label htmlFor={`${idPrefix}-year`}>出生年（西元）</label>
        <input id={`${idPrefix}-year`} name="birthYear" inputMode="numeric" pattern="[0-9]{4}" min={birthYears.min} max={birthYears.max} required defaultValue={values?.birthYear} />
        {errors?.birthYear ? <p className="auth-field__error">{errors.birthYear}</p> : null}
      </div>
    </>
  );
}

function AddChild({ birthYears, consent }: Pick<FamilyScreen, "birthYears" | "consent">) {
  const { answer } = useAnswer("add-child");
  return (
    <section className="page-section" aria-labelledby="family-add-child">
      <h2 id="family-add-child">新增孩子</h2>
      <p>孩子沒有電子郵件、密碼，也不能自己登入；他的平板由你讓它加入家庭。</p>
      <Form method="post" className="card auth-form">
        <AnswerLines answer={answer} />
        <input type="hidden" name="intent" value="add-child" />
        <input type="hidden" name="noticeVersion" value={consent.version} />
        <ChildFields idPrefix="new-child" values={answer?.done ? undefined : answer?.values} errors={answer?.fieldErrors} birthYears={birthYears} />
        <div className="family-notice" id="family-consent-notice" tabIndex={0} aria-label={`兒童個人資料告知事項（版本 ${consent.version}）`}>
          {consent.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
          <p>告知事項版本：{consent.version}</p>
        </div>
        <div className="security-check">
          <input id="family-consent" type="checkbox" name="consent" value="yes" required aria-describedby="family-consent-notice" />
          <label htmlFor="family-consent">我是孩子的家長（法定代理人），已閱讀並同意上面的告知事項。</label>
        </div>
        {answer?.fieldErrors?.consent || answer?.fieldErrors?.noticeVersion ? <p className="auth-field__error">{answer.fieldErrors.consent ?? answer.fieldErrors.noticeVersion}</p> : null}
        <button type="submit" className="button button--primary">
          同意並新增
        </button>
      </Form>
    </section>
  );
}

/**
 * What leaving takes when the viewer is the family's only parent, named as account deletion names it: the family,
 * each child's profile with the consent records, and the tablets' sign-ins.
 */
export function whatLeavingTakes(family: FamilyView, devices: ChildDeviceView[]): string[] {
  const children = family.children.map((child) => child.name).join("、");
  return [
    `家庭「${family.name}」`,
    ...(family.children.length > 0 ? [`${family.children.length} 位孩子的資料（${children}）和他們的同意紀錄`] : []),
    ...(devices.length > 0 ? [`${devices.length} 台孩子平板的登入`] : []),
  ];
}

function LeaveOrDelete({ family, devices }: { family: FamilyView; devices: ChildDeviceView[] }) {
  const { answer } = useAnswer("leave");
  const last = family.parents.length === 1;
  const goes = last ? whatLeavingTakes(family, devices) : [];
  return (
    <section className="page-section" aria-labelledby="family-leave">
      <h2 id="family-leave">離開或刪除家庭</h2>
      <AnswerLines answer={answer} />
      {last ? (
        <>
          <p>你是這個家庭唯一的家長。離開後，下面這些會一起刪除，無法復原：</p>
          <ul>
            {goes.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>{family.role === "owner" ? "你離開後，最早加入的另一位家長會成為擁有者。" : "離開後，你就看不到這個家庭和孩子的資料。"}</p>
      )}
      <div className="family-item__actions">
        <ButtonForm
          intent="leave"
          label="離開家庭"
          confirm={last ? `確定要離開家庭嗎？你是唯一的家長：${goes.join("、")}會一起刪除，無法復原。` : "確定要離開家庭嗎？"}
        />
        {family.role === "owner" ? <ButtonForm intent="delete-family" label="刪除家庭" confirm="確定要刪除家庭嗎？孩子的資料會一併刪除，無法復原。" danger /> : null}
      </div>
    </section>
  );
}
