import { describe, expect, it } from "vitest";
import { articleFrontMatter, parseMarkdownFile, slugOf } from "./front-matter.server";
import { buildCollection } from "./collections.server";
import { renderMarkdown } from "./markdown.server";
import { paginate, parsePageParam } from "./pagination";
import { fillData, fillText } from "~/features/pages/placeholders";
import { readingMinutes } from "./reading-time";

const variables = {
  productName: "任務小勇士",
  supportEmail: "help@example.tw",
  appUrl: "https://app.example.tw",
  siteUrl: "https://example.tw",
};

function article(fields: Record<string, string>, body = "內文第一段。") {
  const front = {
    title: "建立生活常規",
    date: "2026-10-13",
    summary: "用固定順序與看得見的流程表，幫孩子建立能自己完成的生活常規。",
    category: "生活習慣",
    cover: "\n  src: /images/blog/building-routines.svg\n  width: 640\n  height: 360",
    author: "任務小勇士團隊",
    ...fields,
  };
  const yaml = Object.entries(front)
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
  return `---\n${yaml}\n---\n\n${body}\n`;
}

describe("front matter", () => {
  it("accepts a complete file and turns the date into YYYY-MM-DD", () => {
    const { meta, body } = parseMarkdownFile("content/blog/ok.md", article({}), articleFrontMatter);
    expect(meta).toEqual({
      title: "建立生活常規",
      date: "2026-10-13",
      summary: "用固定順序與看得見的流程表，幫孩子建立能自己完成的生活常規。",
      category: "生活習慣",
      cover: { src: "/images/blog/building-routines.svg", width: 640, height: 360 },
      author: "任務小勇士團隊",
    });
    expect(body.trim()).toBe("內文第一段。");
  });

  it("names the file and every field at fault", () => {
    const bad = article({ title: "", date: "not a date", cover: "\n  src: /images/blog/photo.jpg\n  width: 640" });
    expect(() => parseMarkdownFile("content/blog/bad.md", bad, articleFrontMatter)).toThrowError(
      /^content\/blog\/bad\.md: invalid front matter\n {2}title: .+\n {2}date: .+\n {2}cover\.src: .*SVG.*\n {2}cover\.height: .+$/,
    );
  });

  it("refuses unknown fields and an empty body", () => {
    expect(() => parseMarkdownFile("content/blog/x.md", article({ tags: "習慣" }), articleFrontMatter)).toThrowError(/tags|Unrecognized/);
    expect(() => parseMarkdownFile("content/blog/x.md", article({}, ""), articleFrontMatter)).toThrowError(
      "content/blog/x.md: the body is empty",
    );
  });

  it("takes the slug from the file name and refuses names that are not slugs", () => {
    expect(slugOf("/content/blog/chores-by-age.md")).toBe("chores-by-age");
    expect(() => slugOf("/content/blog/家務.md")).toThrowError(/not a valid slug/);
  });
});

describe("collections", () => {
  it("sorts newest first and fills placeholders before parsing", () => {
    const articles = buildCollection(
      {
        "/content/news/older.md": article({ date: "2026-01-02", title: '"{{productName}}上線"' }),
        "/content/news/newer.md": article({ date: "2026-03-04" }, "寫信到 {{supportEmail}}。"),
      },
      variables,
    );
    expect(articles.map((item) => [item.slug, item.date])).toEqual([
      ["newer", "2026-03-04"],
      ["older", "2026-01-02"],
    ]);
    expect(articles[1]?.title).toBe("任務小勇士上線");
    expect(articles[0]?.body).toContain("help@example.tw");
  });

  it("stops on an unknown placeholder, naming the file", () => {
    expect(() => buildCollection({ "/content/news/typo.md": article({}, "{{supportMail}}") }, variables)).toThrowError(
      "/content/news/typo.md: unknown placeholder {{supportMail}}",
    );
  });

  it("fills every string of a data file and keeps other values", () => {
    expect(fillData({ a: ["{{productName}}", 3], b: { c: "{{appUrl}}/x", d: true } }, variables)).toEqual({
      a: ["任務小勇士", 3],
      b: { c: "https://app.example.tw/x", d: true },
    });
    expect(fillText("{{ siteUrl }}", variables)).toBe("https://example.tw");
  });
});

describe("reading time", () => {
  it("counts Chinese characters at about 450 a minute, at least one minute", () => {
    expect(readingMinutes("短文。")).toBe(1);
    expect(readingMinutes("字".repeat(450))).toBe(1);
    expect(readingMinutes("字".repeat(1350))).toBe(3);
    expect(readingMinutes(`${"字".repeat(800)}\n\n## 標題\n\n- React Router and Better Auth`)).toBe(2);
  });

  it("ignores Markdown punctuation and counts Latin words as one each", () => {
    expect(readingMinutes(`${"**字**，".repeat(600)}`)).toBe(readingMinutes("字".repeat(600)));
    expect(readingMinutes("word ".repeat(900))).toBe(2);
  });
});

describe("pagination", () => {
  const items = Array.from({ length: 9 }, (_, index) => index + 1);

  it("cuts pages and counts them", () => {
    expect(paginate(items, 1, 4)).toEqual({ items: [1, 2, 3, 4], page: 1, pageCount: 3 });
    expect(paginate(items, 3, 4)).toEqual({ items: [9], page: 3, pageCount: 3 });
    expect(paginate([], 1, 4)).toEqual({ items: [], page: 1, pageCount: 1 });
  });

  it("has no page beyond the last", () => {
    expect(paginate(items, 4, 4)).toBeNull();
    expect(paginate(items, 0, 4)).toBeNull();
  });

  it("reads ?page= strictly", () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam("2")).toBe(2);
    for (const bad of ["0", "-1", "1.5", "abc", "", "02", "9999999"]) expect(parsePageParam(bad)).toBeNull();
  });
});

describe("Markdown", () => {
  it("shows raw HTML as text", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;");
  });

  it("links only safe addresses, and opens other sites in a new tab", () => {
    expect(renderMarkdown("[x](javascript:alert(1))")).not.toContain("<a");
    expect(renderMarkdown("[x](data:text/html;base64,PHNjcmlwdD4=)")).not.toContain("<a");
    expect(renderMarkdown("[x](//evil.example/)")).not.toContain("<a");
    expect(renderMarkdown("[x](/privacy)")).toContain('<a href="/privacy">x</a>');
    expect(renderMarkdown("[x](mailto:help@example.tw)")).toContain('href="mailto:help@example.tw"');
    expect(renderMarkdown("[x](https://ithelp.ithome.com.tw/)")).toContain(
      '<a href="https://ithelp.ithome.com.tw/" rel="noopener noreferrer" target="_blank">x</a>',
    );
  });
});
