import { getAuthService } from "./auth-service.server";
import type { SessionUser } from "./auth-types";

// Who sent a request: what the features that check roles and authors (dev blog, wishing well) ask of the sign-in layer.

export interface RequestUser {
  id: string;
  email: string;
  name: string;
  role: string;
  isAnonymous: boolean;
  emailVerified: boolean;
}

/** The signed-in user behind a request (from its session cookie), or null; loaders and actions call this. */
export async function getRequestUser(request: Request): Promise<RequestUser | null> {
  const current = await getAuthService().auth.api.getSession({ headers: request.headers });
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

/**
 * The session user as the browser keeps it (SessionUser), for the first HTML of a server-rendered page: the bar
 * then shows the account before, or without, any JavaScript. A failing session store only costs that: null.
 */
export async function getServerSessionUser(request: Request): Promise<SessionUser | null> {
  if (!request.headers.get("cookie")) return null;
  try {
    const current = await getAuthService().auth.api.getSession({ headers: request.headers });
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
  } catch {
    return null;
  }
}
