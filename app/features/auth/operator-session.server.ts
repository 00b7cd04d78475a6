import { getAuthService, type AuthService } from "./auth-service.server";
import { isRecentSignIn } from "./recent-sign-in.server";

/** What this session's `amr` must hold for the console: a second factor proved in it, or a passkey (RFC 8176). */
const strongProofs = ["mfa", "hwk", "swk"];

/**
 * Who is asking for the operator console, as the sign-in layer knows it: the account, whether it is an admin,
 * whether the account has a second factor (two-step sign-in or a passkey), whether THIS session was made with one
 * (its `amr`, sign-in-proof.server.ts: an account with a passkey signed in by password alone has not), and whether
 * the session began within the recent-sign-in window (the same 10 minutes every sensitive change asks for).
 */
export interface OperatorStanding {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  secondFactor: boolean;
  /** This session proved a second factor or a passkey (`amr` holds `mfa`, `hwk` or `swk`). */
  sessionSecondFactor: boolean;
  recent: boolean;
}

export async function operatorStanding(request: Request, service: AuthService = getAuthService()): Promise<OperatorStanding | null> {
  const current = await service.readSession(request.headers);
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
    sessionSecondFactor: ((session as { amr?: string | null }).amr ?? "").split(" ").some((value) => strongProofs.includes(value)),
    recent: isRecentSignIn(session),
  };
}
