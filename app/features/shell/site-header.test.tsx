import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SiteHeader } from "./site-header";
import { dataLayerEvents, renderInRouter } from "~tests/helpers/render-in-router";

vi.mock("~/features/analytics/beacon", () => ({ queueForEndpoint: vi.fn() }));

const bar = async () => screen.findByRole("navigation", { name: "主要導覽" });
/** 選單 is the <summary> of a <details>; "expanded" is that element's `open`. */
const menuToggle = () => screen.getByText("選單").closest("summary")!;
const isOpen = (toggle: HTMLElement) => (toggle.parentElement as HTMLDetailsElement).open;

describe("SiteHeader", () => {
  beforeEach(() => {
    window.dataLayer = [];
    window.scrollY = 0;
  });

  it("shows the six links and marks the current one", async () => {
    renderInRouter(SiteHeader, "/pricing");
    const links = within(await bar()).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["首頁", "/"],
      ["功能介紹", "/features"],
      ["使用教學", "/tutorial"],
      ["免費方案", "/pricing"],
      ["許願池", "/wishing-well"],
      ["學習資源", "/learning-resources"],
    ]);
    expect(links.filter((link) => link.getAttribute("aria-current") === "page").map((link) => link.textContent)).toEqual(["免費方案"]);
  });

  it("keeps 學習資源 active on every page below it, and only it", async () => {
    renderInRouter(SiteHeader, "/learning-resources/habits/morning");
    const current = within(await bar()).getAllByRole("link").filter((link) => link.getAttribute("aria-current"));
    expect(current.map((link) => link.textContent)).toEqual(["學習資源"]);
  });

  it("takes the scrolled look only after more than 50 px", async () => {
    renderInRouter(SiteHeader);
    const header = (await bar()).closest("header")!;
    const scrollTo = (y: number) => act(() => {
      window.scrollY = y;
      fireEvent.scroll(window);
    });
    const scrolled = () => header.className.includes("site-header--scrolled");
    // The bar listens from an effect that may run a moment after it shows: each step waits for the look to change.
    expect(scrolled()).toBe(false);
    scrollTo(51);
    await vi.waitFor(() => expect(scrolled()).toBe(true));
    scrollTo(50);
    await vi.waitFor(() => expect(scrolled()).toBe(false));
    scrollTo(51);
    await vi.waitFor(() => expect(scrolled()).toBe(true));
  });

  it("opens the small-screen menu, reports it, and closes it on navigation", async () => {
    const user = userEvent.setup();
    renderInRouter(SiteHeader);
    await bar();
    const toggle = menuToggle();
    expect(isOpen(toggle)).toBe(false);
    await user.click(toggle);
    expect(isOpen(toggle)).toBe(true);
    await user.click(screen.getByRole("link", { name: "許願池" }));
    await vi.waitFor(() => expect(isOpen(toggle)).toBe(false));
    expect(dataLayerEvents()).toEqual([
      ["event", "menu_toggle", { is_open: true }],
      ["event", "nav_click", { destination: "/wishing-well" }],
    ]);
  });

  it("closes the menu when the link of the current page is chosen", async () => {
    const user = userEvent.setup();
    renderInRouter(SiteHeader, "/tutorial");
    await bar();
    const toggle = menuToggle();
    await user.click(toggle);
    await user.click(screen.getByRole("link", { name: "使用教學" }));
    expect(isOpen(toggle)).toBe(false);
  });

  it("closes the menu on Escape and returns focus to the toggle", async () => {
    const user = userEvent.setup();
    renderInRouter(SiteHeader);
    await bar();
    const toggle = menuToggle();
    await user.click(toggle);
    await user.click(toggle);
    await user.click(toggle);
    await user.keyboard("{Escape}");
    expect(isOpen(toggle)).toBe(false);
    expect(document.activeElement).toBe(toggle);
    expect(dataLayerEvents().map((event) => event[2])).toEqual([{ is_open: true }, { is_open: false }, { is_open: true }]);
  });

  it("reports a click on the logo", async () => {
    const user = userEvent.setup();
    renderInRouter(SiteHeader, "/faq");
    await bar();
    await user.click(screen.getByRole("link", { name: "任務小勇士" }));
    expect(dataLayerEvents()).toEqual([["event", "logo_click", {}]]);
  });
});
