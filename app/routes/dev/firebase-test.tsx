import type { Route } from "./+types/firebase-test";
import { pageMeta } from "~/features/seo/page-meta";
import { getAuthService } from "~/features/auth/index.server";
import { runSelfTest } from "~/features/dev-tools/self-test.server";
import { SelfTestScreen } from "~/features/dev-tools/self-test-screen";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "登入服務自我檢測", description: "檢查登入服務的狀態" });

export async function loader() {
  return { report: await runSelfTest(getAuthService()) };
}

/** The sign-in layer's self-test (kept at the original's address for compatibility). */
export default function FirebaseTestScreen({ loaderData }: Route.ComponentProps) {
  return <SelfTestScreen report={loaderData.report} />;
}
