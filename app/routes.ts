import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/** The route map of PRODUCT §2, in one place. */
export default [
  // Sign-in screens: no navigation bar or footer.
  route("login", "routes/auth/login.tsx"),
  route("login/two-step", "routes/auth/two-step.tsx"),
  route("login/email-link", "routes/auth/email-link.tsx"),
  route("login/phone", "routes/auth/phone.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("email-verification", "routes/auth/email-verification.tsx"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("verify-email", "routes/auth/verify-email.tsx"),

  // Developer tools: the sign-in layer's self-test (at the original's address), and the development mailbox
  // as a screen and as JSON (loopback site without SMTP only; a 404 everywhere else).
  route("firebase-test", "routes/dev/firebase-test.tsx"),
  route("dev/mailbox", "routes/dev/mailbox.tsx"),
  route("api/dev/mailbox", "routes/dev/mailbox-api.ts"),

  // Resources without UI: search engines, the first-party analytics endpoint, CSP violation reports, the
  // wishing well's JSON and the dev blog's feed. Every endpoint of our own is here (decision 902).
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("manifest.webmanifest", "routes/resources/web-manifest.ts"),
  route("api/analytics", "routes/resources/analytics.ts"),
  route("api/csp-report", "routes/resources/csp-report.ts"),
  route("api/apple/notifications", "routes/resources/apple-notifications.ts"),
  route("api/wishes/similar", "routes/resources/wish-similar.ts"),
  route("api/wishes/:id/vote", "routes/resources/wish-vote.ts"),
  route("dev-blog/feed.xml", "routes/resources/dev-blog-feed.ts"),
  route("account/photo", "routes/resources/account-photo.ts"),
  route("account/data.json", "routes/resources/account-data-json.ts"),

  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("features", "routes/site/features.tsx"),
    route("pricing", "routes/site/pricing.tsx"),
    route("current-plan", "routes/site/current-plan.tsx"),
    route("wishing-well", "routes/site/wishing-well.tsx"),
    route("wishing-well/unsubscribe", "routes/site/wishing-well-unsubscribe.tsx"),
    route("wishing-well/:id", "routes/site/wishing-well-wish.tsx"),
    route("faq", "routes/site/faq.tsx"),
    route("about", "routes/site/about.tsx"),
    route("tutorial", "routes/site/tutorial.tsx"),
    route("learning-resources", "routes/site/learning-resources.tsx"),
    route("learning-resources/*", "routes/site/learning-topic.tsx"),
    route("blog", "routes/site/blog.tsx"),
    route("blog/:id", "routes/site/blog-post.tsx"),
    route("dev-blog", "routes/site/dev-blog.tsx"),
    route("dev-blog/create", "routes/site/dev-blog-editor.tsx", { id: "dev-blog-create" }),
    route("dev-blog/:id", "routes/site/dev-blog-post.tsx"),
    route("dev-blog/:id/edit", "routes/site/dev-blog-editor.tsx", { id: "dev-blog-edit" }),
    route("news", "routes/site/news.tsx"),
    route("news/:id", "routes/site/news-item.tsx"),
    route("privacy", "routes/site/privacy.tsx"),
    route("terms", "routes/site/terms.tsx"),
    route("ironman2025", "routes/site/ironman2025.tsx"),
    route("task-scheduler", "routes/site/task-scheduler.tsx"),
    route("account-deletion", "routes/site/account-deletion.tsx"),
    route("account", "routes/site/account.tsx"),
    route("account/security", "routes/site/account-security.tsx"),
    route("account/confirm-identity", "routes/site/account-confirm-identity.tsx"),
    route("account/data", "routes/site/account-data.tsx"),
    route("account/two-step", "routes/site/account-two-step.tsx"),
    route("account/passkeys", "routes/site/account-passkeys.tsx"),
    route("admin", "routes/admin/console.tsx"),
    route("admin/users/:id", "routes/admin/parent.tsx"),
    route("account/family", "routes/site/account-family.tsx"),
    route("account/family/join", "routes/site/account-family-join.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
