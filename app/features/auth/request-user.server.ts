import { getAuthService } from "./auth-service.server";

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
