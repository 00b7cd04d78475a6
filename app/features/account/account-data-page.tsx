import { type AccountData, methodLabels, displayPhoneNumber } from "~/features/auth";
import { PageIntro } from "~/features/pages/page-intro";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import { statusLabels } from "~/features/wishes/wish-rules";
import { SignInPrompt } from "./sign-in-prompt";
import "./account-security.css";

/** The headings of the features' parts (their user-data handlers' names); an unnamed part shows under its own name. */
const featureTitles: Record<string, string> = { wishes: "許願池", posts: "開發者部落格文章", storage: "檔案", family: "家庭" };

/**
 * The features' field names in words (the JSON download keeps the names); `part.field` where a name means something
 * else in one part. A field not listed shows under its own name, so a new feature's export still appears.
 */
const fieldLabels: Record<string, string> = {
  "wishes.wishes": "我許的願望",
  "wishes.votes": "我投票支持的願望",
  id: "編號",
  wishId: "願望編號",
  title: "標題",
  body: "內容",
  summary: "摘要",
  status: "狀態",
  votes: "票數",
  path: "檔案位置",
  size: "大小",
  contentType: "檔案格式",
  createdAt: "建立時間",
  updatedAt: "最後更新",
  publishedAt: "發布時間",
  votedAt: "投票時間",
  // The family's part (family-user-data.server.ts).
  family: "家庭",
  name: "名稱",
  role: "身分",
  parents: "家長",
  joinedAt: "加入時間",
  you: "是你本人",
  children: "孩子",
  avatar: "頭像",
  birthYear: "出生年",
  consents: "同意紀錄",
  noticeVersion: "同意的告知事項版本",
  consentedAt: "同意時間",
  byYou: "由你同意",
  ipAddress: "同意時的 IP 位址",
  userAgent: "同意時的瀏覽器",
  invitationsSent: "你寄出的邀請",
  email: "電子郵件",
  expiresAt: "到期時間",
  acceptedAt: "接受時間",
  cancelledAt: "取消時間",
};

/** Status values in words: a wish's, and a post's. */
const valueWords: Record<string, string> = { ...statusLabels, draft: "草稿", published: "已發布" };
/** A family role, and a child's picture, in words (the family's own names for them: family-rules.ts). */
const roleWords: Record<string, string> = { owner: "擁有者", parent: "家長" };
const avatarWords: Record<string, string> = { lion: "🦁 獅子", rabbit: "🐰 兔子", cat: "🐱 貓咪", dog: "🐶 狗狗", bear: "🐻 熊", panda: "🐼 貓熊", tiger: "🐯 老虎", fox: "🦊 狐狸" };

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** One value as a parent reads it: Taiwan time, a status in words, a size in KB, an image's kind. */
function readable(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "是" : "否";
  if (typeof value === "number") return key === "size" ? `${Math.max(1, Math.round(value / 1024))} KB` : String(value);
  const text = String(value);
  if (isoTime.test(text)) return formatTaiwanDateTime(text);
  if (key === "status") return valueWords[text] ?? text;
  if (key === "role") return roleWords[text] ?? text;
  if (key === "avatar") return avatarWords[text] ?? text;
  if (key === "contentType" && text.startsWith("image/")) return `${text.slice(6).toUpperCase()} 圖片`;
  return text;
}

/**
 * 我的資料 (/account/data): the same copy as the JSON download, readable in words and Taiwan time. Each feature's
 * part shows as a list of its records' fields, so a new feature's export appears here without a change.
 */
export function AccountDataPage({ copy }: { copy: AccountData | null }) {
  return (
    <main className="page page--narrow">
      <PageIntro title="我的資料" lead="這是我們保存的、關於你這個帳號的所有資料。你也可以下載成 JSON 檔保存。" />
      {copy ? (
        <>
          <p className="start-links">
            <a className="button button--primary" href="/account/data.json" download>
              下載 JSON 檔
            </a>
          </p>
          <p>整理時間：{formatTaiwanDateTime(copy.exportedAt)}（台灣時間）</p>
          <section className="page-section" aria-labelledby="data-profile">
            <h2 id="data-profile">個人資料</h2>
            <dl className="data-list">
              <dt>顯示名稱</dt>
              <dd>{copy.profile.displayName}</dd>
              <dt>電子郵件</dt>
              <dd>
                {copy.profile.email ? `${copy.profile.email}（${copy.profile.emailVerified ? "已驗證" : "尚未驗證"}）` : "尚未設定電子郵件"}
              </dd>
              <dt>手機號碼</dt>
              <dd>{copy.profile.phoneNumber ? displayPhoneNumber(copy.profile.phoneNumber) : "沒有"}</dd>
              <dt>大頭貼</dt>
              <dd>{copy.profile.photoURL ? "有" : "沒有"}</dd>
              <dt>建立時間</dt>
              <dd>{formatTaiwanDateTime(copy.profile.createdAt)}</dd>
              <dt>帳號編號</dt>
              <dd>{copy.profile.id}</dd>
            </dl>
          </section>
          <section className="page-section" aria-labelledby="data-methods">
            <h2 id="data-methods">登入方式</h2>
            <ul>
              {copy.signInMethods.map((method) => (
                <li key={`${method.provider}-${method.linkedAt}`}>
                  {methodLabels[method.provider]}（加入於 {formatTaiwanDateTime(method.linkedAt)}）
                </li>
              ))}
            </ul>
          </section>
          <section className="page-section" aria-labelledby="data-passkeys">
            <h2 id="data-passkeys">密碼金鑰</h2>
            {copy.passkeys.length === 0 ? (
              <p>沒有密碼金鑰。</p>
            ) : (
              <ul>
                {copy.passkeys.map((key) => (
                  <li key={`${key.name}-${key.createdAt}`}>
                    「{key.name}」（{key.synced ? "會在你的裝置間同步" : "只存在一台裝置"}），建立於 {formatTaiwanDateTime(key.createdAt)}，
                    {key.lastUsedAt ? `上次使用於 ${formatTaiwanDateTime(key.lastUsedAt)}` : "還沒用來登入過"}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="page-section" aria-labelledby="data-sessions">
            <h2 id="data-sessions">登入中的裝置</h2>
            <ul>
              {copy.sessions.map((session) => (
                <li key={session.createdAt + (session.ipAddress ?? "")}>
                  {session.device}
                  {session.current ? "（目前這個裝置）" : ""}，{session.place ?? "網路位置不明"}，IP 位址 {session.ipAddress ?? "不明"}，登入於{" "}
                  {formatTaiwanDateTime(session.createdAt)}
                </li>
              ))}
            </ul>
          </section>
          {Object.entries(copy.features).map(([name, part]) => (
            <section key={name} className="page-section" aria-labelledby={`data-${name}`}>
              <h2 id={`data-${name}`}>{featureTitles[name] ?? name}</h2>
              {name === "family" && (part as { family?: unknown }).family === null ? <p>你還沒有加入家庭。</p> : <Records value={part} part={name} />}
            </section>
          ))}
        </>
      ) : (
        <SignInPrompt id="data-sign-in" title="登入後查看你的資料" text="登入帳號後，就能在這裡查看並下載你的資料。" returnTo="/account/data" />
      )}
    </main>
  );
}

/**
 * Any JSON part as nested lists: arrays as items, objects as field: value (`field` names the value's field). The
 * part's own top-level fields may have a label of their own (`part` is set only there).
 */
function Records({ value, part = "", field = "" }: { value: unknown; part?: string; field?: string }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <p>沒有資料。</p>;
    return (
      <ol className="data-records">
        {value.map((item, index) => (
          <li key={index}>
            <Records value={item} field={field} />
          </li>
        ))}
      </ol>
    );
  }
  if (value && typeof value === "object") {
    return (
      <dl className="data-list">
        {Object.entries(value).map(([key, inner]) => (
          <div key={key}>
            <dt>{(part && fieldLabels[`${part}.${key}`]) || fieldLabels[key] || key}</dt>
            <dd>
              <Records value={inner} field={key} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <>{readable(field, value)}</>;
}
