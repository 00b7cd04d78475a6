import { render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import DevMailboxScreen, { loader, meta } from "./mailbox";
import { loader as apiLoader } from "./mailbox-api";

// A public site: no development mailbox.
vi.mock("~/features/auth/auth-service.server", () => ({ getAuthService: () => ({ devMailbox: false }) }));
vi.mock("~/features/mail/mailbox.server", () => ({ listMailbox: () => Promise.reject(new Error("no mailbox on a public site")) }));

type LoaderArgs = Parameters<typeof loader>[0];
type MetaArgs = Parameters<typeof meta>[0];

describe("the development mailbox on a public site", () => {
  it("answers 404 with the not-found screen's title, noindex and content", async () => {
    const answer = await loader({ request: new Request("https://example.tw/dev/mailbox") } as LoaderArgs);
    expect(answer).toMatchObject({ data: { mails: null }, init: { status: 404 } });

    const tags = meta({ loaderData: { mails: null }, matches: [], location: { pathname: "/dev/mailbox" } } as unknown as MetaArgs);
    expect(tags).toContainEqual({ title: "找不到頁面" });
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(JSON.stringify(tags)).not.toContain("開發用信箱");

    const Stub = createRoutesStub([{ path: "/dev/mailbox", Component: DevMailboxScreen as never, loader: () => ({ mails: null }) }]);
    const view = render(<Stub initialEntries={["/dev/mailbox"]} />);
    expect(await view.findByRole("heading", { level: 1, name: "找不到頁面" })).toBeTruthy();
    expect(view.getByRole("link", { name: "回到首頁" }).getAttribute("href")).toBe("/");
  });

  it("answers its JSON address, /api/dev/mailbox, with 404 and an error code", async () => {
    const answer = await apiLoader({ request: new Request("https://example.tw/api/dev/mailbox?to=a@example.tw") } as Parameters<typeof apiLoader>[0]);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: { code: "not-found", message: "找不到這個網址。" } });
  });
});
