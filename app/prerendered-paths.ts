/**
 * Screens whose HTML is the same for every visitor and is made at build time.
 * A screen that reads the session or the database stays server-rendered.
 */
export async function prerenderedPaths(): Promise<string[]> {
  return [
    "/",
    "/features",
    "/pricing",
    "/faq",
    "/about",
    "/tutorial",
    "/learning-resources",
    "/privacy",
    "/terms",
    "/ironman2025",
    "/task-scheduler",
  ];
}
