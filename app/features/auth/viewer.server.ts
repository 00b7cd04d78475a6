import { RequestRefused } from "~/services/request-guard.server";
import { isDependencyUnavailable, unlessDependencyFailed } from "~/services/dependency-errors.server";
import { getAuthService } from "./auth-service.server";
import type { Role } from "./roles";
import type { SessionUser } from "./auth-client";

// The viewer on the server: who sent a request, as every loader, action and endpoint that checks a user, a role or
// an author asks the sign-in layer (dev blog, wishing well, file storage, the account screens).

export interface Viewer {
  id: string;
  email: string;
  name: string;
  role: string;
  isAnonymous: boolean;
  emailVerified: boolean;
}

/** Every permission check of the editor's screens and endpoints goes through here, on the server. */
export function isEditor(user: { role?: string | null } | null | undefined): boolean {
  return user?.role === "editor";
}

type SessionLookup = ReturnType<ReturnType<typeof getAuthService>["readSession"]>;
const lookups = new WeakMap<Request, SessionLookup>();

/**
 * The session behind a request, looked up once per page load: the root loader and the page's loaders get the same
 * GET request, and each lookup verifies the cookie's signature and reads the session and its user. A request that
 * may change the session (an action's POST) asks afresh every time. A session store that cannot be read throws
 * (503), never answers null ("signed out").
 */
export function sessionOf(request: Request): SessionLookup {
  const lookup = () => unlessDependencyFailed(() => getAuthService().readSession(request.headers), (current) => !current);
  if (request.method !== "GET" && request.method !== "HEAD") return lookup();
  let session = lookups.get(request);
  if (!session) {
    session = lookup();
    lookups.set(request, session);
  }
  return session;
}

/**
 * `derived` is `original` as the host hands it on to React Router (its nonce, the site's protocol; the same cookie):
 * it shares the lookup an earlier layer made, so a page that layer could not answer does not look the session up twice.
 */
export function shareSessionLookup(original: Request, derived: Request): Request {
  const lookup = lookups.get(original);
  if (lookup && derived !== original) lookups.set(derived, lookup);
  return derived;
}

/** The signed-in user behind a request (from its session cookie), or null. */
export async function getViewer(request: Request): Promise<Viewer | null> {
  const current = await sessionOf(request);
  if (!current) return null;
  const { user } = current;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role ?? "user",
    isAnonymous: Boolean(user.isAnonymous),
    emailVerified: user.emailVerified,
  };
}

/** The signed-in user, or a thrown RequestRefused (401) that the request guard answers in the request's shape. */
export async function requireUser(request: Request): Promise<Viewer> {
  const viewer = await getViewer(request);
  if (!viewer) throw new RequestRefused(401, "sign-in-required", "請先登入。");
  return viewer;
}

/** The signed-in user holding `role`, or a thrown RequestRefused (401 signed out, 403 without the role). */
export async function requireRole(request: Request, role: Role): Promise<Viewer> {
  const viewer = await requireUser(request);
  // Every account is a `user`; any other role must be the account's own.
  if (role !== "user" && viewer.role !== role) throw new RequestRefused(403, "forbidden", "你沒有權限進行這個操作。");
  return viewer;
}

/**
 * The session user as the browser keeps it (SessionUser), for the first HTML of a server-rendered page: the bar
 * then shows the account before, or without, any JavaScript. A session the sign-in layer refuses costs only that
 * (null); a session store that cannot be reached is a 503, never a page shown as signed out.
 */
export async function getServerSessionUser(request: Request): Promise<SessionUser | null> {
  if (!request.headers.get("cookie")) return null;
  try {
    return sessionUserOf(await sessionOf(request));
  } catch (error) {
    if (isDependencyUnavailable(error)) throw error;
    return null;
  }
}

/** A session's user as the browser keeps it (the keys in this order: React Router's data keeps it). */
export function sessionUserOf(current: Awaited<SessionLookup>): SessionUser | null {
  if (!current) return null;
  const { user } = current;
  const isAnonymous = Boolean(user.isAnonymous);
  return {
    uid: user.id,
    email: isAnonymous ? null : user.email,
    displayName: user.name || null,
    emailVerified: user.emailVerified,
    isAnonymous,
    photoURL: user.image ?? null,
  };
}
