import type { BetterAuthPlugin } from "better-auth";
import type { AuthDependencies } from "./auth.server";
import type { AuthAnswer, authFailure, callAuthApi } from "./auth-http.server";
import { waysIn } from "./auth-endpoints";
import { wayInTwins } from "./ways-in/twins.server";

/**
 * The server halves of the ways in: each `ways-in/<name>/<name>.server.ts` (a unit's server twin) exports
 * `wayInServer`, listed in ways-in/twins.server.ts. Its plugins join auth.server.ts's list in the units' order:
 * `plugins` before two-step sign-in (which turns a one-factor sign-in into a pending code), `afterTwoStep` after it
 * (the pop-up plugin answers its opener from the callback's final redirect). A unit with no twin adds no plugin; a
 * twin left out of the list leaves its unit's rows without live endpoints, which tests/integration/auth-endpoints.test.ts
 * refuses.
 */
export type WayInId = (typeof waysIn)[number]["id"];

export interface WayInPlugins {
  plugins: BetterAuthPlugin[];
  afterTwoStep?: BetterAuthPlugin[];
  /** Its plugins' endpoints the site switches off (Better Auth's disabledPaths); their rows stay in the unit. */
  switchedOff?: string[];
}

/**
 * What a twin's screen action is handed rather than imports: the sign-in layer's in-process API and the sign-in
 * screens' way on (sign-in-actions.server.ts). Both reach the auth service, which is built from these twins, so an
 * import would be a cycle.
 */
export interface SignInKit {
  call: typeof callAuthApi;
  fail: typeof authFailure;
  /** A right code or password: on to the two-step code page when the account asks for one, else to the destination. */
  signedIn: (request: Request, fields: Record<string, string>, answer: AuthAnswer) => Response;
  /** Where the visitor goes afterwards: the form's or the address's `redirectTo`, judged by the redirect rule. */
  destination: (request: Request, fields: Record<string, string>) => string;
}

/** A unit's server twin: its plugins, and its screen's form action (called through `wayInAction`). */
export interface WayInServer {
  unit: { id: WayInId };
  plugins: (deps: AuthDependencies) => WayInPlugins;
  screenAction?: (request: Request, kit: SignInKit) => Promise<unknown>;
}

/**
 * Each unit's twin, checked once when the server starts: one per unit at most (a twin's unit is one of `waysIn`
 * by its type).
 */
const twins: ReadonlyMap<WayInId, WayInServer> = (() => {
  const byId = new Map<WayInId, WayInServer>();
  for (const twin of wayInTwins) {
    if (byId.has(twin.unit.id)) throw new Error(`The way in "${twin.unit.id}" has a second server twin (ways-in/twins.server.ts)`);
    byId.set(twin.unit.id, twin);
  }
  return byId;
})();

/** Every way in's plugins, in the units' order, for the two places of auth.server.ts's list, and what they switch off. */
export function wayInPlugins(deps: AuthDependencies): Required<WayInPlugins> {
  const halves = waysIn.flatMap((unit) => twins.get(unit.id)?.plugins(deps) ?? []);
  return {
    plugins: halves.flatMap((half) => half.plugins),
    afterTwoStep: halves.flatMap((half) => half.afterTwoStep ?? []),
    switchedOff: halves.flatMap((half) => half.switchedOff ?? []),
  };
}

/** A way in's screen action, from its twin. */
export function screenActionOf(id: WayInId): NonNullable<WayInServer["screenAction"]> {
  const action = twins.get(id)?.screenAction;
  if (!action) throw new Error(`The way in "${id}" has no screenAction in its server twin`);
  return action;
}
