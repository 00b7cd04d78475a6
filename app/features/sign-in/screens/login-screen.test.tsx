import { render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { LoginScreen } from "./login-screen";

const user = { uid: "u1", displayName: "  ", email: "kid@example.tw", isAnonymous: false, emailVerified: true };
vi.mock("~/features/auth/auth-provider", () => ({ useAuth: () => ({ currentUser: user, loading: false }) }));
vi.mock("~/config/use-public-env", () => ({ usePublicEnv: () => ({ productName: "任務小勇士", siteUrl: "http://localhost:3000" }) }));

describe("/login when already signed in", () => {
  it("names the user the way the navigation bar does: a blank display name falls back to the email's name", async () => {
    const Stub = createRoutesStub([{ path: "/login", Component: () => <LoginScreen providers={[]} /> }]);
    const view = render(<Stub initialEntries={["/login"]} />);
    expect(await view.findByText("你目前以「kid」登入。")).toBeTruthy();
  });
});
