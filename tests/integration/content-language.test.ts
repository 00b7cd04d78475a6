import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { languageProblems } from "~tests/helpers/taiwan-chinese";
import { accountDeletedEmail, emailChangeEmail, emailLinkSignInEmail, passwordResetEmail, securityNoticeEmail, verificationEmail } from "~/features/mail/mail-templates.server";
import { statusNoticeEmail } from "~/features/wishes/wish-notice.server";

/**
 * Every UI and content file: the app's TypeScript (tests aside, email templates included), the host's pages and
 * messages, and the content folder's Markdown and data files. Migrations are left out: they quote the data of the
 * past (0130 renames the guests once called 訪客用戶) and show nothing.
 */
function textFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(tsx?|md)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .filter((entry) => !entry.parentPath.split(path.sep).join("/").endsWith("app/db/migrations"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

describe("Taiwan Traditional Chinese", () => {
  it("finds Simplified characters and mainland terms, and passes Taiwan wording", () => {
    expect(languageProblems("请登录您的账号")).toEqual(
      expect.arrayContaining([expect.stringContaining("Simplified character 请"), expect.stringContaining("登录")]),
    );
    expect(languageProblems("觀看教學視頻")).toEqual(expect.arrayContaining([expect.stringContaining("視頻")]));
    expect(languageProblems("下載這個軟件")).not.toEqual([]);
    expect(languageProblems("網絡連線中斷")).not.toEqual([]);
    expect(languageProblems("打開設置")).not.toEqual([]);
    expect(languageProblems("目前是訪客用戶")).toEqual(expect.arrayContaining([expect.stringContaining("mainland term 訪客用戶 (Taiwan: 訪客)")]));
    expect(languageProblems("不是匿名用戶")).toEqual(expect.arrayContaining([expect.stringContaining("mainland term 匿名用戶 (Taiwan: 訪客)")]));
    expect(languageProblems("以訪客身分試用，顯示名稱為「訪客」")).toEqual([]);
    expect(languageProblems("請用電子郵件登入帳號，觀看影片，下載軟體，連上網路，查看最新消息。")).toEqual([]);
  });

  const files = [...textFiles("app"), ...textFiles("server"), ...textFiles("content")];

  it("covers the content, the screens and the emails", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        path.join("content", "blog", "screen-time.md"),
        path.join("app", "root.tsx"),
        path.join("app", "features", "mail", "mail-templates.server.ts"),
        path.join("server", "dev-identity-provider.ts"),
      ]),
    );
  });

  it("is what every UI and content file is written in", () => {
    const problems = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) => languageProblems(line).map((problem) => `${file}:${index + 1}: ${problem}`)),
    );
    expect(problems).toEqual([]);
  });

  // Decision 841: the site speaks to parents as 你, on every screen and in every email; 您 appears nowhere.
  it("addresses the reader as 你 in every UI, content and email file", () => {
    const formal = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) => (line.includes("您") ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(formal).toEqual([]);
  });

  // One word for one thing (issue 41.6): 密碼金鑰 as the parents' pages say it, never 通行金鑰 (the console and the
  // security record said so once); QR 碼, never QR code, in Chinese text.
  it("calls a passkey 密碼金鑰 and a QR code QR 碼 everywhere", () => {
    const mixed = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) => (line.includes("通行金鑰") || (/QR ?code/i.test(line) && /["`>][^"`<]*QR ?code/i.test(line) && /[\u4e00-\u9fff]/.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(mixed).toEqual([]);
  });

  it("addresses the reader as 你 in every email as sent, in Taiwan wording", () => {
    const brand = { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: "http://localhost:3000" };
    const link = "http://localhost:3000/x?token=t";
    const emails = [
      verificationEmail(brand, "parent@example.tw", link),
      passwordResetEmail(brand, "parent@example.tw", link),
      emailChangeEmail(brand, "parent@example.tw", link),
      emailLinkSignInEmail(brand, "parent@example.tw", link),
      accountDeletedEmail(brand, "parent@example.tw", link),
      securityNoticeEmail(brand, "parent@example.tw", { title: "密碼已更改", body: "你的帳號密碼剛剛更改了。", when: "2026 年 11 月 26 日 10:00", link }),
      statusNoticeEmail(brand, "parent@example.tw", { id: "w", title: "深色模式", status: "declined", statusReason: "暫時沒有人力" }, link),
    ];
    for (const email of emails) {
      const text = `${email.subject}\n${email.text}\n${email.html}`;
      expect(text).not.toContain("您");
      expect(text).toContain("你");
      expect(text.split("\n").flatMap(languageProblems)).toEqual([]);
    }
  });
});
