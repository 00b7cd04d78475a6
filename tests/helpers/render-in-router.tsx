import { render } from "@testing-library/react";
import { Outlet, createRoutesStub } from "react-router";
import type { PublicEnv } from "~/config/public-env";

/** A fixed browser-safe configuration for component tests. */
export const testEnv: PublicEnv = {
  productName: "任務小勇士",
  siteUrl: "https://example.tw",
  appUrl: "https://app.example.tw",
  allowedHostnames: ["example.tw", "app.example.tw", "localhost"],
  supportEmail: "support@example.tw",
  facebookPageUrl: "https://www.facebook.com/taskhero",
  followUs: { href: "https://www.facebook.com/groups/taskhero", kind: "community" },
  youtubeUrl: "https://www.youtube.com/@taskhero",
  blogSalonUrl: "https://vocus.cc/salon/taskhero",
  feedbackFormUrl: "https://forms.gle/taskhero",
  themeColor: "#4a6bff",
  gaMeasurementId: null,
  storageBucket: "default",
};

/**
 * Renders `Component` on every path below a stub root route whose loader hands out `testEnv` and the year, the
 * way the real root does; a page stub names the current path so tests can see navigations.
 */
export function renderInRouter(Component: React.ComponentType, path = "/", env: PublicEnv = testEnv) {
  const Page = () => (
    <>
      <Component />
      <Outlet />
    </>
  );
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ env, renderedYear: new Date().getFullYear() }),
      HydrateFallback: () => null,
      Component: Page,
      children: [{ path: "*", Component: () => <p data-testid="page" /> }],
    },
  ]);
  return render(<Stub initialEntries={[path]} />);
}

/** The events pushed onto the data layer so far, as [command, name, params] arrays. */
export function dataLayerEvents(): unknown[][] {
  return (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
}
