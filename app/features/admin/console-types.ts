// What the operator console's pages show: shared by its server work and its components.

/**
 * Why the console does not open (yet): not an admin (looks like any missing page), no second factor on the account,
 * this session made without one (step-up), not recent. `confirmHref` is the step-up: a code or a passkey, then back.
 */
export type ConsoleClosed =
  | { state: "not-found" }
  | { state: "needs-second-factor" }
  | { state: "needs-step-up"; confirmHref: string }
  | { state: "needs-confirmation"; confirmHref: string };

export interface ParentSummary {
  id: string;
  email: string;
  /** What names the account to an operator: the address the parent gave, else the phone number, else 訪客 or the uid. */
  label: string;
  /** Whether `email` is one the parent gave (not a phone account's or a guest's placeholder): mail can reach it. */
  hasEmail: boolean;
  name: string;
  verified: boolean;
  guest: boolean;
  locked: boolean;
  role: string;
  createdAt: string;
}

export interface ConsoleSearch {
  state: "open";
  operator: { email: string };
  query: string;
  results: ParentSummary[] | null;
  /** The name (email or phone number) of an account the operator has just deleted. */
  deleted: string | null;
}

export interface RecordLine {
  seq: number;
  at: string;
  what: string;
  refused: boolean;
  code: string | null;
  ip: string | null;
  device: string | null;
  /** Set when someone else (an operator) did it. */
  byOperator: boolean;
  reason: string | null;
}

/**
 * The parent's family as support needs it: its name, who its parents are (to open their files) and the children's
 * first names and tablets (to answer 「孩子的平板登不進去」); no avatar, birth year or consent record.
 */
export interface FamilyFacts {
  name: string;
  role: "owner" | "parent";
  parents: { id: string; name: string; email: string; role: "owner" | "parent" }[];
  children: string[];
  tablets: { childName: string; appName: string; approvedBy: string; joinedAt: string }[];
}

export interface ParentFile {
  state: "open";
  operator: { email: string };
  parent: ParentSummary & { lockedAt: string | null; twoStep: boolean };
  waysIn: string[];
  passkeys: { name: string; createdAt: string }[];
  devices: { device: string; ip: string | null; createdAt: string; lastActiveAt: string }[];
  apps: { app: string; ip: string | null; createdAt: string; lastActiveAt: string }[];
  mail: { subject: string; queuedAt: string; status: string }[];
  family: FamilyFacts | null;
  record: RecordLine[];
}
