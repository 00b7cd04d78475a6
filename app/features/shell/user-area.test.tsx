import { cleanup, fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type SessionUser, type AuthState, displayNameOf } from "~/features/auth";
import { UserArea } from "./user-area";
import { renderInRouter, testEnv } from "~tests/helpers/render-in-router";

// The sign-in layer is built in parallel: the user area depends only on the useAuth() interface.
const auth = vi.hoisted(() => ({ state: {} as Partial<AuthState> }));
vi.mock("~/features/auth/auth-provider", () => ({ useAuth: () => auth.state, useAuthRefresh: () => async () => null }));

const user: SessionUser = { uid: "u1", email: "mei@example.tw", displayName: "林小美", emailVerified: true };

describe("displayNameOf", () => {
  it.each([
    [{ displayName: "林小美", email: "mei@example.tw" }, "林小美"],
    [{ displayName: "  ", email: "mei.lin@example.tw" }, "mei.lin"],
    [{ displayName: null, email: "mei.lin@example.tw" }, "mei.lin"],
    [{ displayName: null, email: null }, "使用者"],
    [{ displayName: null, email: "@example.tw" }, "使用者"],
  ])("%o → %s", (input, expected) => expect(displayNameOf(input)).toBe(expected));
});

/** The dropdown's toggle: the <summary> of its <details>. */
const toggleNamed = async (name: string) => (await screen.findByText(name, { selector: ".user-menu__name" })).closest("summary")!;
const isOpen = (toggle: HTMLElement) => (toggle.parentElement as HTMLDetailsElement).open;

describe("UserArea", () => {
  beforeEach(() => {
    auth.state = { loading: false, currentUser: null, logout: vi.fn(() => Promise.resolve()) };
  });

  it("shows the signed-out links while the browser has not heard of a session yet (a prerendered page)", async () => {
    auth.state.loading = true;
    renderInRouter(UserArea);
    expect((await screen.findByRole("link", { name: "登入" })).getAttribute("href")).toBe("/login");
    expect(screen.queryByText(/載入中/)).toBeNull();
  });

  it("offers 立即開始 (the app, in a new tab), 登入 and 註冊 when logged out", async () => {
    renderInRouter(UserArea);
    const start = await screen.findByRole("link", { name: "立即開始" });
    expect([start.getAttribute("href"), start.getAttribute("target"), start.getAttribute("rel")]).toEqual([
      "https://app.example.tw",
      "_blank",
      "noopener",
    ]);
    expect(screen.getByRole("link", { name: "登入" }).getAttribute("href")).toBe("/login");
    expect(screen.getByRole("link", { name: "註冊" }).getAttribute("href")).toBe("/signup");
  });

  it("without an app (APP_URL unset), 立即開始 opens sign-up and the dropdown has no 進入應用程式", async () => {
    const noApp = { ...testEnv, appUrl: null };
    renderInRouter(UserArea, "/", noApp);
    const start = await screen.findByRole("link", { name: "立即開始" });
    expect([start.getAttribute("href"), start.getAttribute("target")]).toEqual(["/signup", null]);

    auth.state.currentUser = user;
    cleanup();
    renderInRouter(UserArea, "/", noApp);
    const toggle = await toggleNamed("林小美");
    await userEvent.click(toggle);
    expect(isOpen(toggle)).toBe(true);
    expect(screen.getByRole("link", { name: "目前方案" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "進入應用程式" })).toBeNull();
  });

  it("shows the photo and display name of a signed-in user", async () => {
    auth.state.currentUser = { ...user, photoURL: "https://example.tw/mei.png" };
    const { container } = renderInRouter(UserArea);
    const toggle = await toggleNamed("林小美");
    expect(container.querySelector("img")?.getAttribute("src")).toBe("https://example.tw/mei.png");
    expect(isOpen(toggle)).toBe(false);
  });

  it("shows an icon and the email's name part when there is no photo or display name", async () => {
    auth.state.currentUser = { ...user, displayName: null };
    const { container } = renderInRouter(UserArea);
    await toggleNamed("mei");
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("summary svg")).not.toBeNull();
  });

  it("opens the dropdown with 目前方案, 帳號安全, 進入應用程式 and 登出", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await toggleNamed("林小美");
    expect(isOpen(toggle)).toBe(false);
    await userEvent.click(toggle);
    expect(isOpen(toggle)).toBe(true);
    expect(screen.queryByRole("link", { name: "升級成正式帳號" })).toBeNull();
    expect(screen.getByRole("link", { name: "目前方案" }).getAttribute("href")).toBe("/current-plan");
    expect(screen.getByRole("link", { name: "帳號安全" }).getAttribute("href")).toBe("/account/security");
    expect(screen.getByRole("link", { name: "帳號設定" }).getAttribute("href")).toBe("/account");
    expect(screen.getByRole("link", { name: "進入應用程式" }).getAttribute("href")).toBe("https://app.example.tw");
    expect(screen.getByRole("button", { name: "登出" })).toBeTruthy();
  });

  it("offers a guest 升級成正式帳號 (back to this page afterwards), and leaves 帳號安全 out", async () => {
    auth.state.currentUser = { ...user, email: null, displayName: "訪客", isAnonymous: true };
    renderInRouter(UserArea, "/faq");
    await userEvent.click(await toggleNamed("訪客"));
    expect(screen.getByRole("link", { name: "升級成正式帳號" }).getAttribute("href")).toBe("/signup?redirectTo=%2Ffaq");
    expect(screen.getByRole("link", { name: "目前方案" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "帳號安全" })).toBeNull();
    expect(screen.queryByRole("link", { name: "帳號設定" })).toBeNull();
  });

  it("closes the dropdown on a click outside, not on a click inside", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await toggleNamed("林小美");
    await userEvent.click(toggle);
    fireEvent.pointerDown(screen.getByRole("link", { name: "目前方案" }));
    expect(isOpen(toggle)).toBe(true);
    fireEvent.pointerDown(document.body);
    expect(isOpen(toggle)).toBe(false);
  });

  it("closes the dropdown on Escape and puts focus back on its button", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await toggleNamed("林小美");
    await userEvent.click(toggle);
    screen.getByRole("link", { name: "目前方案" }).focus();
    await userEvent.keyboard("{Escape}");
    expect(isOpen(toggle)).toBe(false);
    expect(document.activeElement).toBe(toggle);
  });

  it("logs out in place (the form is for pages without JavaScript), and only logs a logout failure", async () => {
    const failure = new Error("network down");
    auth.state.currentUser = user;
    auth.state.logout = vi.fn(() => Promise.reject(failure));
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    renderInRouter(UserArea);
    await userEvent.click(await toggleNamed("林小美"));
    await userEvent.click(screen.getByRole("button", { name: "登出" }));
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith("登出失敗", failure));
    expect(auth.state.logout).toHaveBeenCalledOnce();
    expect(isOpen(await toggleNamed("林小美"))).toBe(false);
    log.mockRestore();
  });
});
