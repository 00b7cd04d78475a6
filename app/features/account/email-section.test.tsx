import { act, fireEvent, render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { EmailSection } from "./email-section";

/** An email change refused for an old sign-in keeps the typed address across 確認身分 and back. */
describe("電子郵件 on /account", () => {
  const section = () => <EmailSection email="mom@example.tw" emailVerified returnTo="/account" />;

  it("carries the typed address in 確認身分's way back", async () => {
    const Stub = createRoutesStub([
      {
        path: "/account",
        Component: section,
        action: () => ({ intent: "change-email", code: "auth/requires-recent-login", formError: "請先確認是你本人", values: { newEmail: "new@example.tw" } }),
      },
    ]);
    const view = await act(async () => render(<Stub initialEntries={["/account"]} />));
    fireEvent.change(view.getByLabelText("新的電子郵件"), { target: { value: "new@example.tw" } });
    fireEvent.click(view.getByRole("button", { name: "寄送確認信" }));
    const link = await view.findByRole("link", { name: "確認身分" });
    const back = new URL(link.getAttribute("href")!, "http://localhost").searchParams.get("redirectTo");
    expect(back).toBe("/account?newEmail=new%40example.tw");
  });

  it("fills the field again when the parent comes back", async () => {
    const Stub = createRoutesStub([{ path: "/account", Component: section }]);
    const view = await act(async () => render(<Stub initialEntries={["/account?newEmail=new%40example.tw"]} />));
    expect((view.getByLabelText("新的電子郵件") as HTMLInputElement).value).toBe("new@example.tw");
  });
});
