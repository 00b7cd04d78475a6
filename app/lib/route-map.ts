/**
 * The route map of PRODUCT §2 and every endpoint of our own, each route saying what it is. app/routes.ts hands it to
 * React Router; the lists that must cover every route read it too: the prerendered pages and the sitemap, the
 * development tools' guard, the action fuzzer, the hostile-request tests and the end-to-end route list (decision 130).
 * Plain data with no framework import, so the server, the build and the tests can all read it.
 */

/** Who may see a screen: anyone, a signed-in account (others are asked to sign in), or an operator (others get 404). */
export type Audience = "everyone" | "signed-in" | "operator";

/** A page people open. Every fact is required, so a screen that leaves one out fails typecheck. */
export interface ScreenRoute {
  kind: "screen";
  /** React Router's path, relative, without a leading slash; "" is the home page. */
  path: string;
  file: string;
  /** Only where two routes share a module. */
  id?: string;
  /** Inside the site's layout (navigation bar and footer). */
  layout: boolean;
  /** Exports an `action`: it takes form posts (the action fuzzer posts to it). */
  action: boolean;
  audience: Audience;
  /** Rendered to HTML once at start-up (app/prerendered-paths.ts, server/startup-pages.ts); a screen that reads the session never is. */
  prerendered: boolean;
  /** Listed in sitemap.xml. */
  listed: boolean;
}

/** An endpoint without UI: a resource route (no default export), answering data to any method it takes. */
export interface ResourceRoute {
  kind: "resource";
  path: string;
  file: string;
}

/** A development tool: answers only a client on this machine of a loopback site, a 404 everywhere else. */
export interface DevToolRoute {
  kind: "dev-tool";
  path: string;
  file: string;
  /** A page people open (the rest answer JSON). */
  page: boolean;
}

export type RouteEntry = ScreenRoute | ResourceRoute | DevToolRoute;

type ScreenFacts = Omit<ScreenRoute, "kind" | "path" | "file">;
// A screen keeps its path and file as literal types (ScreenOfTheMap below).
const screen = <const Path extends string, const File extends string>(path: Path, file: File, facts: ScreenFacts): ScreenRoute & { path: Path; file: File } =>
  ({ kind: "screen", path, file, ...facts });
const resource = (path: string, file: string): ResourceRoute => ({ kind: "resource", path, file });
const devTool = (path: string, file: string, facts: { page: boolean }): DevToolRoute => ({ kind: "dev-tool", path, file, ...facts });

// The facts most screens share, spelled out once each.
const signInScreen = { layout: false, audience: "everyone", action: true, listed: false } as const;
const contentPage = { layout: true, audience: "everyone", action: false, prerendered: true, listed: true } as const;
const accountScreen = { layout: true, audience: "signed-in", action: true, prerendered: false, listed: false } as const;

const entries = [
  // Sign-in screens: no navigation bar or footer. The first four are the same for everyone, so prerendered.
  screen("login", "routes/auth/login.tsx", { ...signInScreen, prerendered: true }),
  screen("login/two-step", "routes/auth/two-step.tsx", { ...signInScreen, prerendered: false }),
  screen("login/email-link", "routes/auth/email-link.tsx", { ...signInScreen, prerendered: false }),
  screen("login/phone", "routes/auth/phone.tsx", { ...signInScreen, prerendered: false }),
  screen("login/email-code", "routes/auth/email-code.tsx", { ...signInScreen, prerendered: false }),
  screen("signup", "routes/auth/signup.tsx", { ...signInScreen, prerendered: true }),
  screen("email-verification", "routes/auth/email-verification.tsx", { ...signInScreen, prerendered: true }),
  screen("forgot-password", "routes/auth/forgot-password.tsx", { ...signInScreen, prerendered: true }),
  screen("reset-password", "routes/auth/reset-password.tsx", { ...signInScreen, prerendered: false }),
  screen("verify-email", "routes/auth/verify-email.tsx", { ...signInScreen, prerendered: false }),
  // The sign-in layer's self-test, public at the original's address (its answer is cached for everyone).
  screen("firebase-test", "routes/dev/firebase-test.tsx", { ...signInScreen, action: false, prerendered: false }),

  // The development mailbox as a screen and as JSON (loopback site without SMTP only; a 404 everywhere else).
  devTool("dev/mailbox", "routes/dev/mailbox.tsx", { page: true }),
  devTool("api/dev/mailbox", "routes/dev/mailbox-api.ts", { page: false }),

  // Resources without UI: search engines, the first-party analytics endpoint, CSP violation reports, the
  // wishing well's JSON, the dev blog's feed and the account's files. Every endpoint of our own is here (decision 902).
  resource("sitemap.xml", "routes/resources/sitemap.ts"),
  resource("robots.txt", "routes/resources/robots.ts"),
  resource("manifest.webmanifest", "routes/resources/web-manifest.ts"),
  resource("api/analytics", "routes/resources/analytics.ts"),
  resource("api/csp-report", "routes/resources/csp-report.ts"),
  // Apple's server-to-server notifications about Sign in with Apple (it POSTs a JWT Apple signed).
  resource("api/apple/notifications", "routes/resources/apple-notifications.ts"),
  resource("api/wishes/similar", "routes/resources/wish-similar.ts"),
  resource("api/wishes/:id/vote", "routes/resources/wish-vote.ts"),
  resource("dev-blog/feed.xml", "routes/resources/dev-blog-feed.ts"),
  resource("account/photo", "routes/resources/account-photo.ts"),
  resource("account/data.json", "routes/resources/account-data-json.ts"),
  // Where the app opens deletion: on to /account-deletion, or to sign in first.
  resource("account-deletion/from-app", "routes/resources/account-deletion-from-app.ts"),

  // Inside the site's layout.
  screen("", "routes/site/home.tsx", contentPage),
  screen("features", "routes/site/features.tsx", contentPage),
  screen("pricing", "routes/site/pricing.tsx", contentPage),
  screen("current-plan", "routes/site/current-plan.tsx", { ...contentPage, prerendered: false, listed: false }),
  screen("wishing-well", "routes/site/wishing-well.tsx", { ...contentPage, action: true, prerendered: false }),
  screen("wishing-well/unsubscribe", "routes/site/wishing-well-unsubscribe.tsx", { ...contentPage, action: true, prerendered: false, listed: false }),
  screen("wishing-well/:id", "routes/site/wishing-well-wish.tsx", { ...contentPage, action: true, prerendered: false, listed: false }),
  screen("faq", "routes/site/faq.tsx", contentPage),
  screen("about", "routes/site/about.tsx", contentPage),
  screen("tutorial", "routes/site/tutorial.tsx", contentPage),
  screen("learning-resources", "routes/site/learning-resources.tsx", contentPage),
  screen("learning-resources/*", "routes/site/learning-topic.tsx", contentPage),
  screen("blog", "routes/site/blog.tsx", contentPage),
  screen("blog/:id", "routes/site/blog-post.tsx", contentPage),
  screen("dev-blog", "routes/site/dev-blog.tsx", { ...contentPage, prerendered: false }),
  screen("dev-blog/create", "routes/site/dev-blog-editor.tsx", { ...accountScreen, id: "dev-blog-create" }),
  // Its posts come from the database: the sitemap route adds the published ones itself.
  screen("dev-blog/:id", "routes/site/dev-blog-post.tsx", { ...contentPage, prerendered: false, listed: false }),
  screen("dev-blog/:id/edit", "routes/site/dev-blog-editor.tsx", { ...accountScreen, id: "dev-blog-edit" }),
  screen("news", "routes/site/news.tsx", contentPage),
  screen("news/:id", "routes/site/news-item.tsx", contentPage),
  screen("privacy", "routes/site/privacy.tsx", contentPage),
  screen("terms", "routes/site/terms.tsx", contentPage),
  screen("ironman2025", "routes/site/ironman2025.tsx", contentPage),
  screen("task-scheduler", "routes/site/task-scheduler.tsx", contentPage),
  screen("account-deletion", "routes/site/account-deletion.tsx", { ...contentPage, action: true, prerendered: false }),
  screen("account", "routes/site/account.tsx", accountScreen),
  screen("account/security", "routes/site/account-security.tsx", accountScreen),
  screen("account/confirm-identity", "routes/site/account-confirm-identity.tsx", accountScreen),
  screen("account/data", "routes/site/account-data.tsx", { ...accountScreen, action: false }),
  screen("account/two-step", "routes/site/account-two-step.tsx", accountScreen),
  screen("account/passkeys", "routes/site/account-passkeys.tsx", accountScreen),
  screen("account/family", "routes/site/account-family.tsx", accountScreen),
  screen("account/family/join", "routes/site/account-family-join.tsx", accountScreen),
  screen("admin", "routes/admin/console.tsx", { ...accountScreen, audience: "operator", action: false }),
  screen("admin/users/:id", "routes/admin/parent.tsx", { ...accountScreen, audience: "operator" }),
  screen("*", "routes/site/not-found.tsx", { ...contentPage, prerendered: false, listed: false }),
] as const satisfies readonly RouteEntry[];

export const routeMap: readonly RouteEntry[] = entries;
/** Every screen with its path and file as literal types (the sign-in screens' links are typed from it). */
export type ScreenOfTheMap = Extract<(typeof entries)[number], { kind: "screen" }>;

/** The address of a route with no parameter, `/` + its path; null for a pattern (`:id`, `*`). */
export function fixedAddress(entry: RouteEntry): string | null {
  return /[:*]/.test(entry.path) ? null : `/${entry.path}`;
}

/** A route's path as a regular expression over whole addresses, matched as React Router matches: any case. */
export function routePattern(entry: RouteEntry): RegExp {
  const source = entry.path
    .split("/")
    .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^/${source}$`, "i");
}

const devToolPatterns = routeMap.filter((entry) => entry.kind === "dev-tool").map(routePattern);

/**
 * Whether `pathname` reaches a development tool. React Router decodes a path and ignores its case and a trailing
 * slash, so this does too: `/DEV/Mailbox/` and `/%64ev/mailbox` are the mailbox.
 */
export function isDevToolAddress(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape reaches no route either.
  }
  const address = decoded.replace(/(.)\/+$/, "$1");
  return devToolPatterns.some((pattern) => pattern.test(address));
}
