import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SiteFooter } from "./site-footer";
import { dataLayerEvents, renderInRouter, testEnv } from "~tests/helpers/render-in-router";

vi.mock("~/features/analytics/beacon", () => ({ queueForEndpoint: vi.fn() }));

const footerNav = () => screen.findByRole("navigation", { name: "頁尾導覽" });
const linkPairs = (root: HTMLElement) =>
  within(root).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")]);

async function openDialog(label: string) {
  renderInRouter(SiteFooter);
  await footerNav();
  await userEvent.click(screen.getByRole("button", { name: label }));
  // Each dialog's code loads on first use.
  return screen.findByRole("dialog", { name: label });
}

describe("SiteFooter", () => {
  beforeEach(() => {
    window.dataLayer = [];
  });

  it("lists the site, legal and contact links", async () => {
    renderInRouter(SiteFooter);
    expect(linkPairs(await footerNav())).toEqual([
      ["首頁", "/"],
      ["關於我們", "/about"],
      ["功能介紹", "/features"],
      ["免費方案", "/pricing"],
      ["常見問題", "/faq"],
      ["家長學堂", "/blog"],
      ["免費任務表", "/task-scheduler"],
      ["隱私權政策", "/privacy"],
      ["服務條款", "/terms"],
      ["技術文章", "/ironman2025"],
      ["support@example.tw", "mailto:support@example.tw"],
      ["Facebook 粉絲專頁", "https://www.facebook.com/taskhero"],
      ["YouTube 頻道", "https://www.youtube.com/@taskhero"],
      ["部落格沙龍", "https://vocus.cc/salon/taskhero"],
      ["意見回饋表單", "https://forms.gle/taskhero"],
    ]);
    const external = within(await footerNav()).getAllByRole("link").filter((link) => link.getAttribute("href")!.startsWith("https:"));
    expect(external.map((link) => [link.getAttribute("target"), link.getAttribute("rel")])).toEqual(
      Array(4).fill(["_blank", "noopener noreferrer"]),
    );
  });

  it("leaves out each contact link whose address is not configured", async () => {
    renderInRouter(SiteFooter, "/", { ...testEnv, facebookPageUrl: null, youtubeUrl: null, blogSalonUrl: "https://vocus.cc/salon/taskhero", feedbackFormUrl: null });
    const contact = linkPairs(await footerNav()).slice(10);
    expect(contact).toEqual([
      ["support@example.tw", "mailto:support@example.tw"],
      ["部落格沙龍", "https://vocus.cc/salon/taskhero"],
    ]);
    const support = screen.getByRole("region", { name: "支持我們" });
    expect(within(support).getAllByRole("button").map((button) => button.textContent)).toEqual(["分享網站", "追蹤我們", "家長夥伴互助", "合作提案"]);
  });

  it("shows the current year and the product name", async () => {
    renderInRouter(SiteFooter);
    await footerNav();
    expect(screen.getByText(`© ${new Date().getFullYear()} 任務小勇士`)).toBeTruthy();
  });

  it("has the four support buttons", async () => {
    renderInRouter(SiteFooter);
    await footerNav();
    const support = screen.getByRole("region", { name: "支持我們" });
    expect(within(support).getAllByRole("button").map((button) => button.textContent)).toEqual([
      "分享網站",
      "追蹤我們",
      "家長夥伴互助",
      "合作提案",
    ]);
  });

  it("follow us: opens the Facebook community in a new tab and reports the click", async () => {
    const dialog = await openDialog("追蹤我們");
    const link = within(dialog).getByRole("link", { name: "前往 Facebook 社團" });
    expect([link.getAttribute("href"), link.getAttribute("target")]).toEqual(["https://www.facebook.com/groups/taskhero", "_blank"]);
    link.addEventListener("click", (event) => event.preventDefault());
    await userEvent.click(link);
    expect(dataLayerEvents()).toEqual([["event", "fanpage_support_click", { source: "follow_us_dialog" }]]);
  });

  it("follow us without a Facebook group: the Facebook page, else the site's own 最新消息; the control is that link without JavaScript", async () => {
    renderInRouter(SiteFooter, "/", { ...testEnv, followUs: { href: "/news", kind: "news" } });
    await footerNav();
    const control = screen.getByRole("button", { name: "追蹤我們" });
    expect([control.tagName, control.getAttribute("href")]).toEqual(["A", "/news"]);
    await userEvent.click(control);
    const link = within(await screen.findByRole("dialog", { name: "追蹤我們" })).getByRole("link", { name: "前往最新消息" });
    expect([link.getAttribute("href"), link.getAttribute("target")]).toEqual(["/news", null]);
  });

  it("share without JavaScript: 分享網站 leads to share links and the address in the page", async () => {
    renderInRouter(SiteFooter);
    await footerNav();
    const control = screen.getByRole("button", { name: "分享網站" });
    const target = document.getElementById(control.getAttribute("href")!.slice(1))!;
    expect(within(target).getAllByRole("link").map((link) => link.textContent)).toEqual(["分享到 Facebook", "分享到 Twitter (X)", "分享到 LINE"]);
    expect(within(target).getByRole("link", { name: "分享到 LINE" }).getAttribute("href")).toContain(encodeURIComponent("https://example.tw"));
    expect(target.textContent).toContain("網址：https://example.tw");
  });

  it("parent partner mutual help: two partner types, three steps, a mail with a subject", async () => {
    const dialog = await openDialog("家長夥伴互助");
    const [types, steps] = within(dialog).getAllByRole("list");
    expect(within(types!).getAllByRole("listitem").map((item) => item.querySelector("strong")?.textContent)).toEqual([
      "親子教養內容創作者",
      "家長社群經營者",
    ]);
    expect(within(steps!).getAllByRole("listitem")).toHaveLength(3);
    expect(within(dialog).getByRole("link").getAttribute("href")).toBe(
      `mailto:support@example.tw?subject=${encodeURIComponent("家長夥伴互助合作")}`,
    );
  });

  it("partnership proposal: welcomes professionals, four collaboration types, a mail with a subject", async () => {
    const dialog = await openDialog("合作提案");
    expect(dialog.textContent).toContain("老師、教育專家與兒童心理師");
    expect(within(dialog).getAllByRole("listitem")).toHaveLength(4);
    expect(within(dialog).getByRole("link").getAttribute("href")).toBe(
      `mailto:support@example.tw?subject=${encodeURIComponent("合作提案")}`,
    );
  });

  it("opens one dialog at a time and closes it again", async () => {
    const dialog = await openDialog("分享網站");
    expect(screen.getAllByRole("dialog")).toEqual([dialog]);
    await userEvent.click(within(dialog).getByRole("button", { name: "關閉" }));
    expect(screen.queryAllByRole("dialog")).toEqual([]);
  });
});
