import { createAuthMiddleware } from "better-auth/api";
import { sql } from "kysely";
import type { BetterAuthPlugin } from "better-auth";
import { z } from "zod";
import type { DatabaseHandle } from "~/db/connection.server";
import { authPaths, endpointsWhere } from "~/features/auth/auth-endpoints";
import { beginPasswordWork } from "~/features/auth/password-hash.server";
import type { WayInServer } from "~/features/auth/way-in-plugins.server";
import { passwordWayIn } from "./password";

/** Email and password: Better Auth's core endpoints, and the sign-in's and the sign-up's hashes begun early. */
export const wayInServer: WayInServer = {
  unit: passwordWayIn,
  plugins: ({ database }) => ({ plugins: [earlyPasswordCheck(database)] }),
};

/**
 * The body Better Auth's `/sign-up/email` takes (its own schema's fields, and its check of the address). Its other
 * checks (the user fields a client may not set, the form's CSRF rule) come after the hooks: a body they refuse costs
 * one hash, as an attempt the rate limits count.
 */
const takenForSignUp = z.object({
  name: z.string(),
  email: z.email(),
  password: z.string().min(1),
  image: z.string().optional(),
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
});

/** The body Better Auth's `/sign-in/email` takes (its own schema, and its check of the address). */
const takenForSignIn = z.object({
  email: z.email(),
  password: z.string(),
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
});

/**
 * A password sign-in's argon2id work begun as soon as every rule that could refuse the request without it has
 * passed (decision 715): the bot check, the lockout, the rate limits, the redirect rule and the body rules run
 * before the ways in's plugins. The rest of the way to the endpoint's own verify (the remaining hooks, Better Auth's
 * read of the user and their accounts) then runs beside the hash instead of before it, on the event loop, which the
 * hash leaves idle. The endpoint's call takes the begun work (password-hash.server.ts); it asks exactly what is
 * begun here, read by the same rule: the credential account's stored hash for the typed address, or, with none,
 * a hash of the typed password (an unknown address takes as long as a known one, as before). A request the
 * endpoint itself would refuse unhashed (a body its schema refuses, an address it does not take, a password over
 * the policy's length), and one past its deadline, begins nothing. A sign-up's hash is begun here too, and waited
 * for (its own hook, below).
 */
function earlyPasswordCheck(database: DatabaseHandle): BetterAuthPlugin {
  // Whether the typed address has an account (the compiled query's one parameter): the sign-up refuses it unhashed.
  const takenAddress = database.db.selectFrom("user").select("id").where("email", "=", "").compile();
  // The credential account of the user with the typed address (the compiled query's one parameter). The user by a
  // subquery, not a join: on SQLite 3.5 µs against 9.4 µs (docs/performance.md, *Seventeenth round*).
  const storedHash = database.db
    .selectFrom("account")
    .select("password")
    .where("providerId", "=", sql.lit("credential"))
    .whereRef("accountId", "=", "userId")
    .where("userId", "=", (users) => users.selectFrom("user").select("id").where("email", "=", ""))
    .compile();
  return {
    id: "early-password-check",
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.path === authPaths.signInEmail),
          handler: createAuthMiddleware(async (ctx) => {
            if (!takenForSignIn.safeParse(ctx.body).success) return;
            const { email, password } = ctx.body as z.infer<typeof takenForSignIn>;
            if (password.length > ctx.context.password.config.maxPasswordLength) return;
            // A read that fails begins nothing: the endpoint reads again and reports it as it always does.
            const found = await database.db.executeQuery<{ password: string | null }>({ ...storedHash, parameters: [email.toLowerCase()] }).catch(() => undefined);
            if (found) void beginPasswordWork(found.rows[0]?.password ?? null, password);
          }),
        },
        {
          // Better Auth's sign-up hashes the password inside its transaction, which on SQLite holds the one
          // connection for the whole hash (a sign-up at a time, and every other write, and every read that waits, behind
          // it: 68 sign-ups/s at 50 in flight). Hashed here first, after the same rules, and waited for, the endpoint's
          // call takes the finished hash at once (decision 715's addendum). A taken address is refused by the endpoint
          // without a hash (its answer names the address as taken), so it is not hashed here either. A read that fails
          // fails the request, as the endpoint's own read would: reading again would make a silent database cost two
          // waits, past the request's deadline.
          matcher: endpointsWhere((row) => row.path === authPaths.signUpEmail),
          handler: createAuthMiddleware(async (ctx) => {
            if (!takenForSignUp.safeParse(ctx.body).success) return;
            const { email, password } = ctx.body as z.infer<typeof takenForSignUp>;
            const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
            if (password.length < minPasswordLength || password.length > maxPasswordLength) return;
            const taken = await database.db.executeQuery({ ...takenAddress, parameters: [email.toLowerCase()] });
            if (taken.rows.length === 0) await beginPasswordWork(null, password);
          }),
        },
      ],
    },
  };
}
