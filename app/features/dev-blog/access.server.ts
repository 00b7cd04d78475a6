import { data, redirect } from "react-router";
import { getViewer, type Viewer, isEditor } from "~/features/auth/index.server";
import { devBlogTexts } from "./blog-service.server";

/**
 * Who is asking, as far as the dev blog cares. A request without a session cookie is a visitor without a
 * database lookup, which keeps the public pages at one query per read.
 */
export async function editorOrNull(request: Request): Promise<Viewer | null> {
  if (!/session_token=/.test(request.headers.get("cookie") ?? "")) return null;
  const user = await getViewer(request);
  return isEditor(user) ? user : null;
}

/** Where a visitor signs in and comes back to (the sign-in screens' `redirectTo` convention). */
export function signInHref(request: Request): string {
  const url = new URL(request.url);
  return `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * The editor screens' guard: a visitor is sent to sign in and brought back; a signed-in user who is not an
 * editor gets a 403 answer the screen shows (thrown so no route code runs further).
 */
export async function requireEditor(request: Request): Promise<Viewer> {
  const user = await getViewer(request);
  if (!user) throw redirect(signInHref(request));
  if (!isEditor(user)) throw data({ forbidden: devBlogTexts().forbidden }, { status: 403 });
  return user;
}
