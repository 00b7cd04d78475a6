import { getAuthService, type AuthService } from "./auth-service.server";
import { isRecentSignIn } from "./recent-sign-in.server";

/**
 * Who is asking for the operator console, as the sign-in layer knows it: the account, whether it is an admin,
 * whether it signs in with a second factor (two-step sign-in or a passkey), and whether its session began within
 * the recent-sign-in window (the same 10 minutes every sensitive change asks for).
 */
export interface OperatorStanding {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  secondFactor: boolean;
  recent: boolean;
}

export async function operatorStanding(request: Request, service: AuthService = getAuthService()): Promise<OperatorStanding | null> {
  const current = await service.auth.api.getSession({ headers: request.headers });
  if (!current || current.user.isAnonymous) return null;
  const { user, session } = current;
  const isAdmin = user.role === "admin";
  // The two-factor plugin's field (typed by the plugin, not by this instance's options).
  const twoStep = Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled);
  // The passkey lookup only for an admin: everyone else is turned away on the role alone.
  const passkeys = isAdmin && !twoStep
    ? await service.database.db.selectFrom("passkey").select("id").where("user_id", "=", user.id).limit(1).execute()
    : [];
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    isAdmin,
    secondFactor: twoStep || passkeys.length > 0,
    recent: isRecentSignIn(session),
  };
}
