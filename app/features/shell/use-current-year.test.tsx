import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useYearAfterHydration } from "./use-current-year";

function Copyright({ renderedYear }: { renderedYear: number }) {
  return <p>© {useYearAfterHydration(renderedYear)}</p>;
}

describe("useYearAfterHydration", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("hydrates a page prerendered last year without a mismatch, then shows the current year", async () => {
    vi.setSystemTime(new Date("2026-12-31T12:00:00+08:00"));
    const html = renderToString(<Copyright renderedYear={2026} />);
    expect(html).toBe("<p>© <!-- -->2026</p>");

    vi.setSystemTime(new Date("2027-01-01T09:00:00+08:00"));
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    const consoleError = vi.spyOn(console, "error");
    const onRecoverableError = vi.fn();
    const root = await act(async () =>
      hydrateRoot(container, <Copyright renderedYear={2026} />, { onRecoverableError }),
    );

    expect(container.textContent).toBe("© 2027");
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });

  it("renders the given year on the server", () => {
    vi.setSystemTime(new Date("2030-06-01T00:00:00Z"));
    expect(renderToString(<Copyright renderedYear={2029} />)).toBe("<p>© <!-- -->2029</p>");
  });
});
