import { act } from "@testing-library/react";
import { useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HydrateLater, useMarkHydrated } from "./hydrate-later";

const isMarked = () => document.documentElement.hasAttribute("data-hydrated");

/** Notes, when its part has hydrated, whether the page was already marked hydrated. */
function Probe({ name, seen }: { name: string; seen: string[] }) {
  useEffect(() => {
    seen.push(`${name}${isMarked() ? " (marked)" : ""}`);
  }, [name, seen]);
  return <p>{name}</p>;
}

function Page({ seen, later }: { seen: string[]; later: boolean }) {
  useMarkHydrated();
  const footer = <Probe name="footer" seen={seen} />;
  return (
    <div>
      <Probe name="bar" seen={seen} />
      {later ? (
        <HydrateLater>
          <Probe name="main" seen={seen} />
          <HydrateLater>{footer}</HydrateLater>
        </HydrateLater>
      ) : (
        footer
      )}
    </div>
  );
}

async function hydrate(later: boolean) {
  const html = renderToString(<Page seen={[]} later={later} />);
  const container = document.createElement("div");
  container.innerHTML = html;
  document.body.append(container);
  const seen: string[] = [];
  const onRecoverableError = vi.fn();
  const root = await act(async () => hydrateRoot(container, <Page seen={seen} later={later} />, { onRecoverableError }));
  return { html, seen, onRecoverableError, container, unmount: () => act(() => root.unmount()) };
}

describe("HydrateLater", () => {
  afterEach(() => {
    delete document.documentElement.dataset.hydrated;
    document.body.replaceChildren();
  });

  it("keeps the server's markup, content included, and hydrates it without a mismatch", async () => {
    const page = await hydrate(true);
    expect(page.html).toContain("<p>main</p>");
    expect(page.html).toContain("<p>footer</p>");
    expect(page.container.textContent).toBe("barmainfooter");
    expect(page.onRecoverableError).not.toHaveBeenCalled();
    page.unmount();
  });

  it("marks the page hydrated only once the last part has hydrated", async () => {
    const page = await hydrate(true);
    expect(page.seen).toEqual(["bar", "main", "footer"]);
    expect(isMarked()).toBe(true);
    page.unmount();
  });

  it("lets the root mark a page without such parts", async () => {
    const page = await hydrate(false);
    expect(page.seen).toEqual(["bar", "footer"]);
    expect(isMarked()).toBe(true);
    page.unmount();
  });
});
