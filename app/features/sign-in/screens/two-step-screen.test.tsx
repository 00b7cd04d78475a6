import { act, fireEvent, render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { TwoStepScreen } from "./two-step-screen";

vi.mock("~/config/use-public-env", () => ({ usePublicEnv: () => ({ productName: "任務小勇士", siteUrl: "http://localhost:3000" }) }));

/** /login/two-step: the code form's refusal is about the code form, and goes once the parent turns to a backup code. */
describe("/login/two-step", () => {
  it("puts the code form's 「驗證碼無效」 away when the parent turns to the backup codes", async () => {
    const Stub = createRoutesStub([
      { path: "/login/two-step", Component: TwoStepScreen, action: () => ({ intent: "totp", formError: "驗證碼無效" }) },
    ]);
    const view = await act(async () => render(<Stub initialEntries={["/login/two-step"]} />));
    fireEvent.change(await view.findByLabelText("驗證碼"), { target: { value: "123456" } });
    fireEvent.click(view.getByRole("button", { name: "驗證並登入" }));
    expect(await view.findByText("驗證碼無效")).toBeTruthy();

    // Opening 改用備用碼 and submitting it empty: the backup form says what it misses, the code form's answer is gone.
    await act(async () => {
      const details = view.container.querySelector("details")!;
      details.open = true;
      details.dispatchEvent(new Event("toggle"));
    });
    fireEvent.focus(view.getByLabelText("備用碼"));
    fireEvent.click(view.getByRole("button", { name: "使用備用碼登入" }));
    await act(async () => undefined);
    expect(view.queryByText("驗證碼無效")).toBeNull();
  });
});
