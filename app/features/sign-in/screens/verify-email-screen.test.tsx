import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { VerifyEmailScreen } from "./verify-email-screen";

vi.mock("~/features/auth/auth-provider", () => ({ useAuth: () => ({ currentUser: null, loading: false }), useAuthRefresh: () => async () => undefined }));
vi.mock("~/config/use-public-env", () => ({ usePublicEnv: () => ({ productName: "任務小勇士", siteUrl: "http://localhost:3000" }) }));

/** /verify-email as the server sends it, which is all a browser without JavaScript ever shows. */
describe("/verify-email without JavaScript", () => {
  it("asks for the 完成驗證 button instead of saying 正在驗證… beside it forever", () => {
    const Stub = createRoutesStub([{ path: "/verify-email", Component: VerifyEmailScreen }]);
    const html = renderToString(<Stub initialEntries={["/verify-email?token=t&email=mom%40example.tw"]} />);
    expect(html).toContain("完成驗證");
    expect(html).toContain("請按「完成驗證」。");
    expect(html).not.toContain("正在驗證");
  });
});
