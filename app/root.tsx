import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { getEnv } from "~/config/env.server";
import { toPublicEnv, type PublicEnv } from "~/config/public-env";
import { AuthProvider } from "~/features/auth";
import { getServerSessionUser } from "~/features/auth/index.server";
import { templateUserOf } from "~/features/shell/signed-in-pages.server";
import { NavigationStatus } from "~/components/navigation-status";
import { LoadError, isChunkLoadError } from "~/components/load-error";
import { GoogleAnalytics } from "~/features/analytics/google-analytics";
import { PageTracking } from "~/features/analytics/page-tracking";
import { InlineStylesheet } from "~/features/shell/inline-stylesheet";
import { PasskeySupportMark } from "~/features/sign-in/passkey-support-mark";
import { useMarkHydrated } from "~/components/hydrate-later";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request }: Route.LoaderArgs) {
  // The footer's © year starts from this one, so a page prerendered last year still hydrates cleanly. The session
  // user is read for a server-rendered page only (a prerendered one is made without cookies, for everybody); the
  // host's template of a prerendered page as a signed-in parent sees it is made for a user of markers.
  const sessionUser = templateUserOf(request) ?? (await getServerSessionUser(request));
  return { env: toPublicEnv(getEnv()), renderedYear: new Date().getFullYear(), sessionUser };
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Absent only when the root loader itself failed; the head then goes without the configured extras.
  const env = (useRouteLoaderData("root") as { env?: PublicEnv } | undefined)?.env;
  return (
    <html lang="zh-Hant-TW">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {env && <meta name="theme-color" content={env.themeColor} />}
        <Meta />
        <InlineStylesheet />
        <Links />
        <GoogleAnalytics measurementId={env?.gaMeasurementId ?? null} />
        <PasskeySupportMark />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page as interactive (<html data-hydrated>): the early-tap replay and the tests wait for it.
  useMarkHydrated();
  return (
    <AuthProvider>
      <Outlet />
      <NavigationStatus />
      <PageTracking />
    </AuthProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isChunkLoadError(error)) return <LoadError reason="chunk" />;
  if (isRouteErrorResponse(error) && error.status < 500) return <LoadError reason="request" status={error.status} />;
  if (import.meta.env.DEV) console.error(error);
  return <LoadError reason="server" />;
}
