import { render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useLinkParams } from "./link-params";

function Screen() {
  const { token, email } = useLinkParams(["token", "email"]);
  return <p>{`${token}|${email}`}</p>;
}

describe("useLinkParams", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("keeps the link's token and email but removes them from the address bar", async () => {
    const address = "/verify-email?token=secret-token&email=kid%40example.tw&ref=mail#top";
    window.history.replaceState({ idx: 0 }, "", address);
    const Stub = createRoutesStub([{ path: "/verify-email", Component: Screen }]);
    const view = render(<Stub initialEntries={[address]} />);
    await view.findByText("secret-token|kid@example.tw");
    await vi.waitFor(() => expect(`${location.pathname}${location.search}${location.hash}`).toBe("/verify-email?ref=mail#top"));
    expect(window.history.state).toEqual({ idx: 0 });
    expect(view.getByText("secret-token|kid@example.tw")).toBeTruthy();
  });

  it("leaves an address without them alone", async () => {
    window.history.replaceState(null, "", "/reset-password?from=mail");
    const Stub = createRoutesStub([{ path: "/reset-password", Component: Screen }]);
    const view = render(<Stub initialEntries={["/reset-password?from=mail"]} />);
    await view.findByText("|");
    expect(`${location.pathname}${location.search}`).toBe("/reset-password?from=mail");
  });
});
