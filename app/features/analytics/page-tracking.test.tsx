import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Link, Outlet, createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANALYTICS_ENDPOINT, MAX_BATCH, flush } from "./beacon";
import { PageTracking } from "./page-tracking";
import { track } from "./track";

const dataLayer = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
const sentBatches = (beacon: ReturnType<typeof vi.fn>) =>
  Promise.all(beacon.mock.calls.map(async ([, body]) => JSON.parse(await (body as Blob).text()) as { events: { name: string }[] }));

describe("analytics", () => {
  let beacon: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    window.dataLayer = [];
    sessionStorage.clear();
    beacon = vi.fn(() => true);
    vi.stubGlobal("navigator", { ...navigator, sendBeacon: beacon });
  });
  afterEach(() => {
    flush();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("pushes each event onto the data layer as gtag's arguments", () => {
    track("nav_click", { destination: "/faq" });
    expect(Object.prototype.toString.call(window.dataLayer![0])).toBe("[object Arguments]");
    expect(dataLayer()).toEqual([["event", "nav_click", { destination: "/faq" }]]);
  });

  it("sends events to the endpoint in one beacon after 5 s", async () => {
    vi.useFakeTimers();
    track("logo_click");
    track("menu_toggle", { is_open: false });
    vi.advanceTimersByTime(4_999);
    expect(beacon).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(beacon).toHaveBeenCalledOnce();
    expect(beacon.mock.calls[0]![0]).toBe(ANALYTICS_ENDPOINT);
    expect(await sentBatches(beacon)).toEqual([
      { events: [{ name: "logo_click", params: {} }, { name: "menu_toggle", params: { is_open: false } }] },
    ]);
  });

  it("sends at once when the queue is full or the page hides", async () => {
    for (let count = 0; count < MAX_BATCH; count += 1) track("logo_click");
    expect(beacon).toHaveBeenCalledOnce();
    track("landing_page_open");
    window.dispatchEvent(new Event("pagehide"));
    expect(beacon).toHaveBeenCalledTimes(2);
    expect((await sentBatches(beacon)).map((batch) => batch.events.length)).toEqual([MAX_BATCH, 1]);
  });

  it("reports landing_page_open once per visit and page_view on every route change", async () => {
    const Root = () => (
      <>
        <Link to="/faq">常見問題</Link>
        <PageTracking />
        <Outlet />
      </>
    );
    const Stub = createRoutesStub([{ path: "/", Component: Root, children: [{ path: "*", Component: () => null }] }]);
    const first = render(<Stub initialEntries={["/"]} />);
    await userEvent.click(await first.findByRole("link", { name: "常見問題" }));
    first.unmount();
    render(<Stub initialEntries={["/"]} />);
    await vi.waitFor(() => expect(dataLayer().filter(([, name]) => name === "page_view")).toHaveLength(3));
    expect(dataLayer().map(([, name, params]) => [name, (params as { page_path?: string }).page_path])).toEqual([
      ["landing_page_open", undefined],
      ["page_view", "/"],
      ["page_view", "/faq"],
      ["page_view", "/"],
    ]);
  });

  it("never reports a link's token or email in page_location", async () => {
    window.history.replaceState(null, "", "/verify-email?email=kid%40example.tw&token=secret-token&ref=mail");
    try {
      const Stub = createRoutesStub([{ path: "*", Component: PageTracking }]);
      render(<Stub initialEntries={["/verify-email?email=kid%40example.tw&token=secret-token&ref=mail"]} />);
      await vi.waitFor(() => expect(dataLayer().filter(([, name]) => name === "page_view")).toHaveLength(1));
      const [, , params] = dataLayer().find(([, name]) => name === "page_view")!;
      expect(params).toEqual({ page_path: "/verify-email", page_title: document.title, page_location: `${location.origin}/verify-email?ref=mail` });
      expect(JSON.stringify(dataLayer())).not.toMatch(/secret-token|kid/);
    } finally {
      window.history.replaceState(null, "", "/");
    }
  });
});
