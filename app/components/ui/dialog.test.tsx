import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Dialog } from "./dialog";

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        打開
      </button>
      <Dialog open={open} title="測試對話框" onClose={() => setOpen(false)}>
        <a href="#inside">裡面的連結</a>
      </Dialog>
    </>
  );
}

async function openDialog() {
  render(<Opener />);
  const opener = screen.getByRole("button", { name: "打開" });
  await userEvent.click(opener);
  const dialog = document.querySelector("dialog")!;
  expect(dialog.open).toBe(true);
  expect(screen.getByRole("heading", { name: "測試對話框" }).id).toBe(dialog.getAttribute("aria-labelledby"));
  return { opener, dialog };
}

function expectClosedWithFocusOn(dialog: HTMLDialogElement, opener: HTMLElement) {
  expect(dialog.open).toBe(false);
  expect(dialog.querySelector(".dialog__box")).toBeNull();
  expect(document.activeElement).toBe(opener);
}

describe("Dialog", () => {
  it("closes with its close button and returns focus to the opener", async () => {
    const { opener, dialog } = await openDialog();
    await userEvent.click(screen.getByRole("button", { name: "關閉" }));
    expectClosedWithFocusOn(dialog, opener);
  });

  it("closes on a click on the overlay, not on a click inside", async () => {
    const { opener, dialog } = await openDialog();
    fireEvent.click(screen.getByRole("heading", { name: "測試對話框" }));
    expect(dialog.open).toBe(true);
    fireEvent.click(dialog);
    expectClosedWithFocusOn(dialog, opener);
  });

  it("closes on Escape (the dialog's cancel event)", async () => {
    const { opener, dialog } = await openDialog();
    const cancel = new Event("cancel", { cancelable: true });
    fireEvent(dialog, cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expectClosedWithFocusOn(dialog, opener);
  });
});
