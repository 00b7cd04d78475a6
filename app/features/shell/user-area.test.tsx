import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "~/features/auth/auth-client";
import type { AuthState } from "~/features/auth/auth-provider";
import { displayNameOf } from "~/features/auth/display-name";
import { UserArea } from "./user-area";
import { renderInRouter } from "./testing";

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

describe("UserArea", () => {
  beforeEach(() => {
    auth.state = { loading: false, currentUser: null, logout: vi.fn(() => Promise.resolve()) };
  });

  it("shows 載入中... while the auth state loads", async () => {
    auth.state.loading = true;
    renderInRouter(UserArea);
    expect((await screen.findByText("載入中...")).tagName).toBe("P");
    expect(screen.queryByRole("link")).toBeNull();
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

  it("shows the photo and display name of a signed-in user", async () => {
    auth.state.currentUser = { ...user, photoURL: "https://example.tw/mei.png" };
    const { container } = renderInRouter(UserArea);
    const toggle = await screen.findByRole("button", { name: "林小美" });
    expect(container.querySelector("img")?.getAttribute("src")).toBe("https://example.tw/mei.png");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
  });

  it("shows an icon and the email's name part when there is no photo or display name", async () => {
    auth.state.currentUser = { ...user, displayName: null };
    const { container } = renderInRouter(UserArea);
    await screen.findByRole("button", { name: "mei" });
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("button svg")).not.toBeNull();
  });

  it("opens the dropdown with 目前方案, 帳號安全, 進入應用程式 and 登出", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await screen.findByRole("button", { name: "林小美" });
    const list = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(list.hidden).toBe(true);
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(list.hidden).toBe(false);
    expect(screen.getByRole("link", { name: "目前方案" }).getAttribute("href")).toBe("/current-plan");
    expect(screen.getByRole("link", { name: "帳號安全" }).getAttribute("href")).toBe("/account/security");
    expect(screen.getByRole("link", { name: "進入應用程式" }).getAttribute("href")).toBe("https://app.example.tw");
    expect(screen.getByRole("button", { name: "登出" })).toBeTruthy();
  });

  it("leaves 帳號安全 out of a guest's dropdown", async () => {
    auth.state.currentUser = { ...user, email: null, displayName: "訪客", isAnonymous: true };
    renderInRouter(UserArea);
    await userEvent.click(await screen.findByRole("button", { name: "訪客" }));
    expect(screen.getByRole("link", { name: "目前方案" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "帳號安全" })).toBeNull();
  });

  it("closes the dropdown on a click outside, not on a click inside", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await screen.findByRole("button", { name: "林小美" });
    await userEvent.click(toggle);
    fireEvent.pointerDown(screen.getByRole("link", { name: "目前方案" }));
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    fireEvent.pointerDown(document.body);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
  });

  it("closes the dropdown on Escape and puts focus back on its button", async () => {
    auth.state.currentUser = user;
    renderInRouter(UserArea);
    const toggle = await screen.findByRole("button", { name: "林小美" });
    await userEvent.click(toggle);
    screen.getByRole("link", { name: "目前方案" }).focus();
    await userEvent.keyboard("{Escape}");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(toggle);
  });

  it("logs out, and only logs a logout failure", async () => {
    const failure = new Error("network down");
    auth.state.currentUser = user;
    auth.state.logout = vi.fn(() => Promise.reject(failure));
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    renderInRouter(UserArea);
    await userEvent.click(await screen.findByRole("button", { name: "林小美" }));
    await userEvent.click(screen.getByRole("button", { name: "登出" }));
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith("登出失敗", failure));
    expect(auth.state.logout).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "林小美" }).getAttribute("aria-expanded")).toBe("false");
    log.mockRestore();
  });
});
