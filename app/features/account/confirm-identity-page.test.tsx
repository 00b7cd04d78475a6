import { act, render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ConfirmIdentityPage } from "./confirm-identity-page";

/** 確認身分 says who asks: an app that wants a fresh sign-in (max_age, prompt=login) by its name, the site otherwise. */
describe("/account/confirm-identity", () => {
  const account = { email: "mom@example.tw", hasPassword: true, twoStep: false, passkeys: false, providers: [] };
  // Rendered inside an awaited act: the page's parts load lazily, and a first render suspends.
  const view = async (appName: string | null) => {
    const Stub = createRoutesStub([{ path: "/account/confirm-identity", Component: () => <ConfirmIdentityPage account={account} appName={appName} /> }]);
    return act(async () => render(<Stub initialEntries={["/account/confirm-identity"]} />));
  };

  it("names the app that asked", async () => {
    const page = await view("任務小勇士 App");
    expect(await page.findByText("『任務小勇士 App』請你再確認一次身分。")).toBeTruthy();
    expect(page.queryByText(/距離上次登入已超過/)).toBeNull();
  });

  it("tells why the site asks when no app did", async () => {
    const page = await view(null);
    expect(await page.findByText(/距離上次登入已超過 10 分鐘。.*請先確認是你本人。/)).toBeTruthy();
  });
});
