import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BotCheckField } from "./bot-check-field";

// A form held for its bot check (BotCheckField) is sent once the check is in, and only once: not again when the
// next round's check comes after the outcome. The challenge endpoint is stood in for: each answer waits until the
// test lets it go, and says the check is off (nothing to solve), as the test server's does.
function challengeGate() {
  const waiting: (() => void)[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(() => new Promise<Response>((resolve) => waiting.push(() => resolve(Response.json({ kind: "off" }))))),
  );
  return {
    async answerAll() {
      await act(async () => {
        for (const answer of waiting.splice(0)) answer();
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
    },
  };
}

function HeldForm({ round, onSent }: { round: number; onSent: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSent();
      }}
    >
      <BotCheckField renew={round} />
      <button type="submit">寄送登入連結</button>
    </form>
  );
}

describe("a form held for its bot check", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("says 安全檢查中… while held, is sent once the check is in, and never again at the next round", async () => {
    const gate = challengeGate();
    const onSent = vi.fn();
    const { rerender } = render(<HeldForm round={1} onSent={onSent} />);
    fireEvent.click(screen.getByRole("button", { name: "寄送登入連結" }));
    expect(onSent).not.toHaveBeenCalled();
    expect(screen.getByRole("status").textContent).toBe("安全檢查中…");

    await gate.answerAll();
    expect(onSent).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("status")).toBeNull();

    // The outcome came back: a new round asks for a new check; its answer sends nothing by itself.
    rerender(<HeldForm round={2} onSent={onSent} />);
    await gate.answerAll();
    expect(onSent).toHaveBeenCalledTimes(1);
  });
});
