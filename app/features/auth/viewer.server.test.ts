// One session lookup per page load: the root loader and the page's loader share it; an action asks afresh.
import { beforeEach, describe, expect, it, vi } from "vitest";

const readSession = vi.fn();
vi.mock("./auth-service.server", () => ({ getAuthService: () => ({ readSession }) }));
const { getServerSessionUser, getViewer, shareSessionLookup } = await import("./viewer.server");

const user = { id: "u1", email: "mom@example.tw", name: "媽媽", role: "user", isAnonymous: false, emailVerified: true, image: null };
const request = (method: string) => new Request("https://example.tw/wishing-well", { method, headers: { cookie: "session=abc" } });

describe("the viewer's session lookup", () => {
  beforeEach(() => {
    readSession.mockReset();
    readSession.mockResolvedValue({ session: { id: "s1" }, user });
  });

  it("looks the session up once for every loader of one page load", async () => {
    const page = request("GET");
    const [root, viewer, again] = await Promise.all([getServerSessionUser(page), getViewer(page), getViewer(page)]);
    expect(root?.uid).toBe("u1");
    expect(viewer?.id).toBe("u1");
    expect(again?.id).toBe("u1");
    expect(readSession).toHaveBeenCalledTimes(1);
    // Another page load is another request: looked up again.
    await getViewer(request("GET"));
    expect(readSession).toHaveBeenCalledTimes(2);
  });

  it("shares the lookup with the request the host hands on to React Router", async () => {
    const page = request("GET");
    await getViewer(page);
    const handedOn = shareSessionLookup(page, new Request(page, { headers: new Headers(page.headers) }));
    expect((await getViewer(handedOn))?.id).toBe("u1");
    expect(readSession).toHaveBeenCalledTimes(1);
  });

  it("asks afresh on every call for an action, which may change the session", async () => {
    const action = request("POST");
    await getViewer(action);
    readSession.mockResolvedValue(null);
    expect(await getViewer(action)).toBeNull();
    expect(readSession).toHaveBeenCalledTimes(2);
  });
});
