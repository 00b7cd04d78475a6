import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { getEnv } from "~/config/env.server";
import { toPublicEnv } from "~/config/public-env";
import { AuthProvider } from "~/features/auth/auth-provider";
import { NavigationStatus } from "~/components/navigation-status";
import { LoadError, isChunkLoadError } from "~/components/load-error";
import "~/styles/global.css";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function loader() {
  return { env: toPublicEnv(getEnv()) };
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="zh-Hant-TW">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
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
  // Marks the page as interactive: styles can tell a hydrated page apart, and tests wait for it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <AuthProvider>
      <Outlet />
      <NavigationStatus />
    </AuthProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isChunkLoadError(error)) return <LoadError reason="chunk" />;
  if (isRouteErrorResponse(error) && error.status < 500) return <LoadError reason="request" status={error.status} />;
  if (import.meta.env.DEV) console.error(error);
  return <LoadError reason="server" />;
}
