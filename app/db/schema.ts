import type { Generated } from "kysely";

/**
 * Kysely table types. Each feature adds its tables here together with a migration in ./migrations; a way in of
 * the sign-in layer declares its own columns or tables in its server twin (`ways-in/<name>/<name>.server.ts`), merged
 * into these interfaces, so adding one leaves this file alone (CONTRIBUTING.md, "Add a way in").
 * Timestamps are stored as ISO-8601 text on SQLite and timestamptz on PostgreSQL; code reads them as strings
 * or Dates through the helpers that own each table.
 */
export interface Database {
  app_meta: AppMetaTable;
  // --- sign-in layer ---
  user: AuthUserTable;
  session: AuthSessionTable;
  account: AuthAccountTable;
  dev_mail: DevMailTable;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

// --- sign-in layer ---
// Better Auth owns these rows and reads/writes them itself; the types let other code join on `user.id`
// and let tests look inside. Dates arrive as Date (PostgreSQL) or text (SQLite).
export interface AuthUserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  isAnonymous: boolean | number | null;
  /** `user` or `editor` (migration 0110, `app/features/auth/roles.ts`). */
  role: string;
}

export interface AuthSessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date | string;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The `amr` values of the proof that made the session, space-separated (sign-in-proof.server.ts). */
  amr: string | null;
}

export interface AuthAccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface DevMailTable {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

// --- analytics ---
// Declaration merging adds the table to Database here, so this block stays append-only.
export interface Database {
  analytics_events: AnalyticsEventsTable;
}

/** One first-party analytics event: its name, its validated parameters as JSON, when it arrived (ISO-8601). */
export interface AnalyticsEventsTable {
  id: string;
  name: string;
  params: string;
  received_at: string;
}

// --- developer blog ---
export interface Database {
  dev_blog_posts: DevBlogPostsTable;
  dev_blog_post_tags: DevBlogPostTagsTable;
}

/** One dev-blog post; times are ISO-8601 text, `tags` a JSON array, `version` counts saves (optimistic concurrency). */
export interface DevBlogPostsTable {
  id: string;
  title: string;
  summary: string;
  body: string;
  body_html: string;
  reading_minutes: number;
  cover_url: string | null;
  tags: string;
  status: "draft" | "published";
  author_id: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  version: number;
}

export interface DevBlogPostTagsTable {
  post_id: string;
  tag: string;
}

// --- file storage ---
export interface Database {
  storage_objects: StorageObjectsTable;
  storage_uploads: StorageUploadsTable;
  storage_trash: StorageTrashTable;
}

/** One stored object (original §3 metadata); its bytes live in the blob driver under `blob_key`. */
export interface StorageObjectsTable {
  bucket: string;
  path: string;
  /** Whose quota it counts against (the uploader); null once that account is gone (blog images stay). */
  owner_id: string | null;
  blob_key: string;
  /** bigint: a string on PostgreSQL, a number on SQLite. */
  size: number | string;
  content_type: string;
  md5_hash: string;
  generation: string;
  metageneration: number;
  cache_control: string | null;
  content_disposition: string | null;
  content_encoding: string | null;
  content_language: string | null;
  /** JSON object of string values, or null. */
  custom_metadata: string | null;
  /** Comma-separated download tokens. */
  download_tokens: string;
  created_at: string;
  updated_at: string;
}

/** A resumable upload in progress: its chunks sit in the blob driver as `uploads/<id>/<n>`. */
export interface StorageUploadsTable {
  id: string;
  bucket: string;
  path: string;
  owner_id: string;
  /** The metadata JSON sent when the upload started. */
  metadata: string;
  total_size: number | string | null;
  received: number | string;
  chunks: number;
  created_at: string;
}

/** Bytes whose row is gone (deleted, replaced, or its account deleted), removed once that change committed. */
export interface StorageTrashTable {
  blob_key: string;
  created_at: string;
}

// --- wishing well ---
export interface Database {
  wishes: WishesTable;
  wish_votes: WishVotesTable;
  wish_notice_settings: WishNoticeSettingsTable;
}

/** A wish on the board. Times are ISO-8601 text; `vote_count` mirrors the rows of wish_votes. */
export interface WishesTable {
  id: string;
  author_id: string;
  title: string;
  body: string;
  status: string;
  status_reason: string | null;
  team_reply: string | null;
  vote_count: Generated<number>;
  merged_into: string | null;
  hidden_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WishVotesTable {
  wish_id: string;
  user_id: string;
  created_at: string;
}

export interface WishNoticeSettingsTable {
  user_id: string;
  token: string;
  unsubscribed_at: string | null;
}

// --- mail outbox ---
export interface Database {
  mail_outbox: MailOutboxTable;
}

/** One email to deliver (app/features/mail/outbox.server.ts); ISO-8601 times, null until it happens. */
export interface MailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  failed_at: string | null;
  last_error: string | null;
  /** Extra headers as JSON (e.g. List-Unsubscribe), or null. */
  headers: string | null;
}

// --- single-use emailed links (sign-in layer) ---
export interface Database {
  used_link_token: UsedLinkTokenTable;
}

/** A used verification link: the SHA-256 of its token and when the link would have expired (ISO-8601). */
export interface UsedLinkTokenTable {
  token_hash: string;
  expires_at: string;
}

// --- the app's sign-in (OpenID provider) ---
export interface Database {
  oidc_record: OidcRecordTable;
  oidc_signing_key: OidcSigningKeyTable;
}

/** One record of the OpenID provider (a grant, token, code, interaction, provider session): JSON and its expiry (ms). */
export interface OidcRecordTable {
  kind: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  expires_at: number | string;
  consumed_at: number | string | null;
  /** A consumed refresh token's successor and the answer that carried it (the grace for a lost answer). */
  successor_id: string | null;
  kept_answer: string | null;
}

/** A signing key the provider made for itself (when OIDC_JWKS is unset): its private JWK as JSON. */
export interface OidcSigningKeyTable {
  kid: string;
  private_jwk: string;
  created_at: string;
}

// --- known devices (sign-in layer: new-device notices) ---
export interface Database {
  known_device: KnownDeviceTable;
}

/** A browser that has signed in to the account: SHA-256 of its device cookie, ISO-8601 times. */
export interface KnownDeviceTable {
  user_id: string;
  device_hash: string;
  first_seen_at: string;
  last_seen_at: string;
}

// --- security record (app/features/security-record) ---
export interface Database {
  security_record: SecurityRecordTable;
  security_record_head: SecurityRecordHeadTable;
}

/** One security event; `hash` is SHA-256 over `prev_hash` and the row's fields. bigint: a string on PostgreSQL. */
export interface SecurityRecordTable {
  seq: number | string;
  at: string;
  user_id: string | null;
  actor_id: string | null;
  event: string;
  outcome: string;
  code: string | null;
  ip: string | null;
  user_agent: string | null;
  /** JSON object (an operator's reason, a provider's name), never a password, code, token or link. */
  detail: string | null;
  prev_hash: string;
  hash: string;
}

/** The chain's one head row (id 1): the newest row, and the anchor the oldest kept row follows. */
export interface SecurityRecordHeadTable {
  id: number;
  seq: number | string;
  hash: string;
  anchor_seq: number | string;
  anchor_hash: string;
}

// --- account lock (app/features/auth/account-lock.server.ts); declaration merging adds the column ---
export interface AuthUserTable {
  /** ISO-8601 time an operator locked the account, or null. */
  lockedAt?: string | null;
}

// --- development identity provider (server/dev-identity-provider.ts) ---
export interface Database {
  dev_identity_record: DevIdentityRecordTable;
}

/** One record of the development identity provider (an interaction, session, code, grant, its signing key): JSON. */
export interface DevIdentityRecordTable {
  kind: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  expires_at: number | string;
}

// --- families (app/features/family) ---
export interface Database {
  family: FamilyTable;
  family_member: FamilyMemberTable;
  family_child: FamilyChildTable;
  family_consent: FamilyConsentTable;
}

/** A household: its name as its parents typed it, ISO-8601 times. */
export interface FamilyTable {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A parent's place in a family: one family per parent; `owner` (exactly one per family) or `parent`. */
export interface FamilyMemberTable {
  user_id: string;
  family_id: string;
  role: string;
  joined_at: string;
}

/** A child's profile: no email, no password, no way in of its own. */
export interface FamilyChildTable {
  id: string;
  family_id: string;
  name: string;
  avatar: string;
  birth_year: number | string;
  created_at: string;
  updated_at: string;
}

/** A parent's recorded consent to a child's profile and the notice version they agreed to. */
export interface FamilyConsentTable {
  id: string;
  child_id: string;
  parent_id: string;
  parent_email: string;
  notice_version: string;
  ip_address: string | null;
  user_agent: string | null;
  consented_at: string;
}

// --- family invitations (app/features/family) ---
export interface Database {
  family_invitation: FamilyInvitationTable;
}

/** A single-use invitation to join a family as a parent: the token's SHA-256, ISO-8601 times. */
export interface FamilyInvitationTable {
  id: string;
  family_id: string;
  token_hash: string;
  invited_by: string;
  email: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  cancelled_at: string | null;
}

// --- family devices (app/features/family; migration 0750) ---
export interface Database {
  family_device: FamilyDeviceTable;
}

/** A child's tablet: its grant's session row (id), the child, the approving parent's id, the app's name. */
export interface FamilyDeviceTable {
  grant_id: string;
  child_id: string;
  approved_by: string | null;
  app_name: string;
  created_at: string;
}

// --- Sign in with Apple (sign-in layer, app/features/auth/apple.server.ts; migration 0180) ---
// Declared again to merge into the sign-in layer's account row above: the provider's tokens Better Auth keeps.
export interface AuthAccountTable {
  accessToken: string | null;
  refreshToken: string | null;
}

export interface Database {
  apple_token_revocation: AppleTokenRevocationTable;
}

/** One of Apple's tokens to revoke after an account's deletion; the row goes once Apple has taken it. */
export interface AppleTokenRevocationTable {
  id: string;
  token: string;
  token_type: "refresh_token" | "access_token";
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
}

// --- deletion started in the app (account, app/features/account/app-deletion.server.ts; migration 0181) ---
export interface Database {
  app_deletion_ticket: AppDeletionTicketTable;
}

/** A ticket the app opened the deletion page with: its SHA-256, the account it names, its end (ISO-8601). */
export interface AppDeletionTicketTable {
  ticket_hash: string;
  user_id: string;
  expires_at: string;
}

// --- accounts imported from Firebase (app/features/firebase-import; migration 1040) ---
export interface Database {
  firebase_hash_parameters: FirebaseHashParametersTable;
  firebase_imports: FirebaseImportsTable;
}

/** The Firebase project's password hash parameters (one row, id 1), for the imported hashes not yet rehashed. */
export interface FirebaseHashParametersTable {
  id: number;
  signer_key: string;
  salt_separator: string;
  rounds: number;
  mem_cost: number;
  written_at: string;
}

/** One imported Firebase uid (= `user.id`): the SHA-256 of its export entry and what has no column of its own. */
export interface FirebaseImportsTable {
  uid: string;
  fingerprint: string;
  imported_at: string;
  updated_at: string;
  last_signed_in_at: string | null;
  custom_attributes: string | null;
}
