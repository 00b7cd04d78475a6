import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { languageProblems } from "../helpers/taiwan-chinese";

/** Every UI and content file: the app's TypeScript (tests aside) and the content folder's Markdown and data files. */
function textFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(tsx?|md)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
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
    expect(languageProblems("請用電子郵件登入帳號，觀看影片，下載軟體，連上網路，查看最新消息。")).toEqual([]);
  });

  const files = [...textFiles("app"), ...textFiles("content")];

  it("covers the content and the screens", () => {
    expect(files).toEqual(expect.arrayContaining([path.join("content", "blog", "screen-time.md"), path.join("app", "root.tsx")]));
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
});
