import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ShareDialog } from "./share-dialog";
import { dataLayerEvents, renderInRouter } from "~tests/helpers/render-in-router";

vi.mock("~/features/analytics/beacon", () => ({ queueForEndpoint: vi.fn() }));

const shareText = "推薦給家長：任務小勇士用遊戲化的任務，陪孩子養成獨立與責任感！";
const renderShare = async () => {
  renderInRouter(() => <ShareDialog open onClose={() => {}} />);
  await screen.findByRole("heading", { name: "分享網站" });
};
// Plain DOM clicks: user-event's own delays would run on the fake clock.
const click = (name: string) => act(() => screen.getByRole("button", { name }).click());

describe("ShareDialog", () => {
  beforeEach(() => {
    window.dataLayer = [];
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("copies the site address and shows 已複製！ for exactly 2 seconds", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    await renderShare();
    vi.useFakeTimers();
    await click("複製連結");
    expect(writeText).toHaveBeenCalledWith("https://example.tw");
    expect(screen.getByRole("status").textContent).toBe("已複製！");
    await act(() => vi.advanceTimersByTime(1_999));
    expect(screen.getByRole("status").textContent).toBe("已複製！");
    await act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole("status").textContent).toBe("");
    expect(dataLayerEvents()).toEqual([["event", "website_share", { share_method: "copy", share_url: "https://example.tw" }]]);
  });

  it("falls back to a hidden textarea and the copy command without the Clipboard API", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: undefined });
    const copied: string[] = [];
    document.execCommand = vi.fn(() => {
      const textarea = document.activeElement as HTMLTextAreaElement;
      copied.push(textarea.value.slice(textarea.selectionStart, textarea.selectionEnd));
      return true;
    });
    await renderShare();
    screen.getByRole("button", { name: "複製連結" }).focus();
    await click("複製連結");
    expect(copied).toEqual(["https://example.tw"]);
    expect(document.querySelector("textarea")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "複製連結" }));
    expect(screen.getByRole("status").textContent).toBe("已複製！");
  });

  it("only logs a copy that fails both ways", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: undefined });
    document.execCommand = vi.fn(() => false);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await renderShare();
    await click("複製連結");
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith("分享失敗", expect.any(Error)));
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it.each([
    ["Facebook", "facebook", "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.tw"],
    ["Twitter (X)", "twitter", `https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.tw&text=${encodeURIComponent(shareText)}`],
    ["LINE", "line", `https://social-plugins.line.me/lineit/share?url=https%3A%2F%2Fexample.tw&text=${encodeURIComponent(shareText)}`],
  ])("opens the %s share link in a 600×400 pop-up", async (label, method, href) => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    await renderShare();
    await click(`分享到 ${label}`);
    expect(open).toHaveBeenCalledOnce();
    const [url, , features] = open.mock.calls[0]!;
    expect(url).toBe(href);
    expect(features).toMatch(/(^|,)width=600(,|$)/);
    expect(features).toMatch(/(^|,)height=400(,|$)/);
    expect(dataLayerEvents()).toEqual([["event", "website_share", { share_method: method, share_url: "https://example.tw" }]]);
  });

  it("uses native share where the browser has it, and only logs its failure", async () => {
    const failure = new Error("AbortError");
    const share = vi.fn(() => Promise.reject(failure));
    vi.stubGlobal("navigator", { ...navigator, share });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await renderShare();
    await click("使用裝置分享");
    expect(share).toHaveBeenCalledWith({ title: "任務小勇士", text: shareText, url: "https://example.tw" });
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith("分享失敗", failure));
    expect(dataLayerEvents()).toEqual([["event", "website_share", { share_method: "native", share_url: "https://example.tw" }]]);
  });

  it("has no native share button where the browser has no navigator.share", async () => {
    vi.stubGlobal("navigator", { ...navigator, share: undefined });
    await renderShare();
    expect(screen.queryByRole("button", { name: "使用裝置分享" })).toBeNull();
  });
});
