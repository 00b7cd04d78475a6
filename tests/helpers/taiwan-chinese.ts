import * as OpenCC from "opencc-js";

const toTaiwanCharacters = OpenCC.Converter({ from: "cn", to: "tw" });
const toTaiwanPhrases = OpenCC.Converter({ from: "t", to: "twp" });

/**
 * Reviewed exceptions. Characters that OpenCC would rewrite one by one although Taiwan writes them so
 * (台灣, 里程碑, 准許, 干擾), and words its Taiwan phrase table rewrites although they are the usual Taiwan
 * wording here (最新消息, 個資法第 8 條的「利用對象」, 免責聲明, 情感上的支持, 查看,
 * 參數, 錯誤代碼, 保存 as in 保存期限 or 保存資料, 權限 as in 你沒有權限進行這個操作 — the table turns it into 許可權).
 */
export const sharedCharacters = new Set(["台", "里", "准", "干"]);
export const acceptedWords = ["消息", "對象", "聲明", "支持", "查看", "參數", "代碼", "保存", "權限"];

/** Mainland wording with its Taiwan equivalent, in both scripts where the forms differ. */
export const mainlandTerms: Record<string, string> = {
  視頻: "影片",
  视频: "影片",
  軟件: "軟體",
  软件: "軟體",
  網絡: "網路",
  网络: "網路",
  信息: "資訊",
  登錄: "登入",
  登录: "登入",
  賬號: "帳號",
  账号: "帳號",
  賬戶: "帳戶",
  郵箱: "電子郵件",
  邮箱: "電子郵件",
  默認: "預設",
  屏幕: "螢幕",
  質量: "品質",
  短信: "簡訊",
  鼠標: "滑鼠",
  服務器: "伺服器",
  數據: "資料",
  博客: "部落格",
  視屏: "影片",
  // A guest is 訪客 in Taiwan (issue: the bar, /privacy, /account-deletion and the news said 訪客用戶).
  訪客用戶: "訪客",
  匿名用戶: "訪客",
};

const han = /\p{Script=Han}/gu;

/** Every problem of one line of text, as readable messages. */
export function languageProblems(line: string): string[] {
  const problems: string[] = [];
  for (const character of new Set(line.match(han) ?? [])) {
    if (!sharedCharacters.has(character) && toTaiwanCharacters(character) !== character) {
      problems.push(`Simplified character ${character} (Taiwan: ${toTaiwanCharacters(character)})`);
    }
  }
  for (const [term, taiwan] of Object.entries(mainlandTerms)) {
    if (line.includes(term)) problems.push(`mainland term ${term} (Taiwan: ${taiwan})`);
  }
  const masked = acceptedWords.reduce((text, word) => text.replaceAll(word, "＿".repeat(word.length)), line);
  const taiwan = toTaiwanPhrases(masked);
  if (taiwan !== masked) problems.push(`OpenCC Taiwan wording differs: "${masked.trim()}" → "${taiwan.trim()}"`);
  return problems;
}
