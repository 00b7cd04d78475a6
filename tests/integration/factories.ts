import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Configuration } from "openid-client";
import { expect } from "vitest";
import type { Database } from "~/db/schema";
import { addChild, createFamily } from "~/features/family/family-store.server";

type ChildInput = Parameters<typeof addChild>[3];
import { finishSignIn, startSignIn, type TokenSet } from "~tests/fixtures/reference-client";
import { authorize } from "./app-sign-in-fixtures";
import type { AuthTestClient, AuthTestServer } from "./auth-server";

/**
 * The things most data-layer tests start from — an account, a family with a child, an app signed in — made one way
 * (as the Epic Stack's tests/db-utils.ts does), through the same API a parent uses unless the name says otherwise.
 * Each call makes its own: a fresh address, so tests never share a rate-limit bucket or a mailbox.
 */

export const defaultPassword = "kite-river-7";

/** A fresh address that says which test made it: `newEmail("console")` → console-1a2b3c4d@example.tw. */
export const newEmail = (prefix = "parent") => `${prefix}-${randomUUID().slice(0, 8)}@example.tw`;

/** The `token` of a mailed link (verification, sign-in by email, change of address). */
export const tokenFrom = (link: string | undefined) => new URL(link ?? "", "http://localhost").searchParams.get("token") ?? "";

export interface TestAccount {
  /** Signed in as the account (sign-up signs in). */
  client: AuthTestClient;
  email: string;
  id: string;
  password: string;
}

export interface AccountOptions {
  /** The start of the address (`newEmail`). */
  prefix?: string;
  name?: string;
  password?: string;
  /** Where the request comes from (`server.client` options). */
  ip?: string;
  userAgent?: string;
  /** The browser that signs up (and keeps the sign-up's session); a new one by default. */
  client?: AuthTestClient;
}

/** An account signed up through the API (`/sign-up/email`), address not yet verified, signed in on `client`. */
export async function signedUpAccount(server: AuthTestServer, options: AccountOptions = {}): Promise<TestAccount> {
  const { prefix, name = "小明", password = defaultPassword, ip, userAgent } = options;
  const client = options.client ?? server.client({ ip, userAgent });
  const email = newEmail(prefix);
  const answer = await client.post<{ user: { id: string } }>("/sign-up/email", { email, password, name });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { client, email, id: answer.body.user.id, password };
}

/**
 * An account whose address is verified the way a parent does it: the mailed link opened (by another browser, so
 * `client` keeps the session of the sign-up).
 */
export async function verifiedAccount(server: AuthTestServer, options: AccountOptions = {}): Promise<TestAccount> {
  const account = await signedUpAccount(server, options);
  await openVerificationLink(server, account.email);
  return account;
}

/** The verification link last mailed to `email`, opened by another browser. */
export async function openVerificationLink(server: AuthTestServer, email: string) {
  const mail = await server.latestMail(email, /驗證/);
  const link = mail.links.find((candidate) => candidate.includes("/verify-email"));
  expect(link, `no verification link to ${email}`).toBeDefined();
  expect((await server.client().get(`/verify-email?token=${encodeURIComponent(tokenFrom(link))}`)).status).toBe(200);
}

/**
 * A verified account signed in again from a new browser (`browser`), as a parent does after opening the link;
 * `client` keeps the sign-up's own session.
 */
export async function verifiedAccountSignedIn(server: AuthTestServer, options: AccountOptions = {}): Promise<TestAccount & { browser: AuthTestClient }> {
  const account = await verifiedAccount(server, options);
  const browser = server.client();
  expect((await browser.post("/sign-in/email", { email: account.email, password: account.password })).status).toBe(200);
  return { ...account, browser };
}

/**
 * An account row written straight into the database (no API, no mail): for tests of the data layer below the
 * sign-in layer (families, the operator's records).
 */
export async function accountRow(db: Kysely<Database>, options: { name?: string; verified?: boolean; prefix?: string } = {}) {
  const { name = "家長", verified = true, prefix } = options;
  const id = randomUUID();
  const at = new Date().toISOString();
  const email = newEmail(prefix);
  await db
    .insertInto("user")
    .values({ id, name, email, emailVerified: verified ? 1 : 0, image: null, createdAt: at, updatedAt: at, isAnonymous: 0, role: "user" })
    .execute();
  return { id, email };
}

/** The brand the family's mail carries in tests. */
export const testBrand = { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: "http://localhost" };

/** A family owned by `parent`, with one child (the family store's own calls, as the family screens make them). */
export async function familyWithChild(
  db: Kysely<Database>,
  parent: { id: string },
  options: { familyName?: string; child?: ChildInput; brand?: Parameters<typeof createFamily>[1] } = {},
) {
  const { familyName = "王家", child = { name: "小明", avatar: "lion", birthYear: 2019 }, brand = testBrand } = options;
  const familyId = await createFamily(db, brand, parent, familyName);
  const childId = await addChild(db, brand, parent, child, { ipAddress: null, userAgent: null });
  return { familyId, childId };
}

/** Our own app's redirect (a private-use scheme, tests/integration/app-sign-in-fixtures.ts `testClients`). */
export const nativeRedirect = "tw.example.app:/callback";

/** A child's tablet: our own public app signing in by the device grant (RFC 8628). */
export const tabletApp = {
  client_id: "tablet",
  client_name: "任務小勇士平板",
  redirect_uris: [nativeRedirect],
  public: true,
  first_party: true,
  grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
};

/**
 * The whole sign-in of an app for a browser that is signed in on the site: the authorization request (PKCE), the
 * browser's hops, the code exchange. `parameters` join the authorization request (scope, prompt…); `tokenParameters`
 * the code exchange.
 */
export async function appSignIn(
  app: Configuration,
  server: AuthTestServer,
  browser: AuthTestClient,
  options: { redirectUri?: string; parameters?: Record<string, string>; tokenParameters?: Record<string, string> } = {},
): Promise<TokenSet> {
  const pending = await startSignIn(app, options.redirectUri ?? nativeRedirect, options.parameters);
  const outcome = await authorize(browser, server, pending.url);
  if (!("left" in outcome)) throw new Error(`the app's sign-in did not come back to the app: ${JSON.stringify(outcome)}`);
  return finishSignIn(app, outcome.left, pending, options.tokenParameters);
}
