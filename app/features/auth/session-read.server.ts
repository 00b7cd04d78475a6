import { createHmac, timingSafeEqual } from "node:crypto";
import { sql, type CompiledQuery } from "kysely";
import type { DatabaseHandle } from "~/db/connection.server";
import { straightReader } from "~/db/straight-read.server";
import { getLogger } from "~/services/logger.server";
import type { Auth } from "./auth.server";
import { withinAbsoluteLifetime } from "./sessions.server";

export type SessionAnswer = Awaited<ReturnType<Auth["api"]["getSession"]>>;
/** All a page load's session read looks at of a request: its Cookie header. */
export type CookieHeaders = Pick<Headers, "get">;
type AuthContext = Awaited<Auth["$context"]>;
type FieldAttributes = AuthContext["tables"][string]["fields"][string];

/** A cookie's value as better-call reads it for Better Auth: the first pair of that name, unquoted, URI-decoded. */
function cookieValue(header: string, name: string): string | null {
  let index = 0;
  while (index < header.length) {
    const equals = header.indexOf("=", index);
    if (equals === -1) return null;
    let end = header.indexOf(";", index);
    if (end === -1) end = header.length;
    else if (end < equals) {
      index = header.lastIndexOf(";", equals - 1) + 1;
      continue;
    }
    if (header.slice(index, equals).trim() === name) {
      let value = header.slice(equals + 1, end).trim();
      if (value.codePointAt(0) === 34) value = value.slice(1, -1);
      try {
        return value.includes("%") ? decodeURIComponent(value) : value;
      } catch {
        return value;
      }
    }
    index = end + 1;
  }
  return null;
}

/** The token of a signed cookie value (`token.base64(HMAC-SHA256)`), or null when the signature is not the secret's. */
function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature)) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  return timingSafeEqual(Buffer.from(signature, "base64"), expected) ? token : null;
}

/** How many signed cookie values a reader remembers as verified: a site's signed-in parents of the last while. */
const VERIFIED_KEPT = 10_000;

/**
 * `verifiedToken`, remembering the values that verified: the HMAC was a tenth of a signed-in page's CPU, and a
 * parent sends the same value on every page load. Only values that verified are kept, so a scan of made-up cookies
 * fills nothing; the oldest is dropped past the bound. Each memory checks against one secret, its reader's; whether
 * the session still stands is read every time.
 */
function verifiedTokens(secret: string): (value: string) => string | null {
  const verified = new Map<string, string>();
  return (value) => {
    const known = verified.get(value);
    if (known !== undefined) return known;
    const token = verifiedToken(value, secret);
    if (token === null) return null;
    if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(value, token);
    return token;
  };
}

type Row = Record<string, unknown>;

/** One field of Better Auth's session or user as a column of the row read, and how its value is read back. */
interface Column {
  key: string;
  column: string;
  read: (value: unknown) => unknown;
}

const asIs = (value: unknown) => value;
const asText = (value: unknown) => (value === null || value === undefined ? value : String(value));

/**
 * The fields Better Auth answers for a model (its tables, `returned: false` left out), each read back as its Kysely
 * adapter reads it (ids as text; on SQLite dates from ISO text and booleans from 0/1). Null when a field needs more
 * than that (a transform, JSON, a list): the reader then always leaves the session to Better Auth.
 */
function columnsOf(fields: Record<string, FieldAttributes>, sqlite: boolean): Column[] | null {
  const columns: Column[] = [{ key: "id", column: "id", read: asText }];
  for (const [key, field] of Object.entries(fields)) {
    if (field.transform?.output || !["string", "date", "boolean", "number"].includes(String(field.type))) return null;
    if (field.returned === false) continue;
    const column = field.fieldName || key;
    if (field.references?.field === "id") columns.push({ key, column, read: asText });
    else if (sqlite && field.type === "date") columns.push({ key, column, read: (value) => (typeof value === "string" ? new Date(value) : value) });
    else if (sqlite && field.type === "boolean") columns.push({ key, column, read: (value) => (typeof value === "number" ? value === 1 : value) });
    else columns.push({ key, column, read: asIs });
  }
  return columns;
}

/** A model's columns as a joined row names them: with the table's alias as a prefix (`s_token`, `u_email`). */
const aliased = (table: string, columns: Column[]) => columns.map((column) => ({ ...column, alias: `${table}_${column.column}` }));
/** A model's columns as a row of the union names them: by place (`c0`, `c1`, …), the same names for both models. */
const placed = (columns: Column[]) => columns.map((column, index) => ({ ...column, alias: `c${index}` }));
type NamedColumns = ReturnType<typeof aliased>;

/** A model's fields out of a row read with `aliased` or `placed` names. */
function recordOf(row: Record<string, unknown>, columns: NamedColumns): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, alias, read } of columns) record[key] = read(row[alias]);
  return record;
}

/**
 * The session of a token and its user in one statement, compiled once (Kysely builds a query anew per call). On
 * PostgreSQL a join. On SQLite the two rows of a `union all`, each part by key, told apart by their first column: there
 * the join took 17–22 µs, two statements by key 7–8 µs, the union 5 µs (docs/performance.md, *Seventeenth round*).
 */
function sessionQuery(context: AuthContext, database: DatabaseHandle) {
  const sqlite = database.dialect === "sqlite";
  const { session, user } = context.tables;
  const sessionColumns = columnsOf(session!.fields, sqlite);
  const userColumns = columnsOf(user!.fields, sqlite);
  if (!sessionColumns || !userColumns) {
    getLogger().warn("a session or user field needs Better Auth's own reading: every page load's session goes through getSession");
    return null;
  }
  const field = (model: "session" | "user", key: string) => context.tables[model]!.fields[key]?.fieldName || key;
  const sessions = sql`${sql.table(session!.modelName)} as s`;
  const users = sql`${sql.table(user!.modelName)} as u`;
  const tokenColumn = field("session", "token");
  const userIdColumn = field("session", "userId");
  const byToken = sql`${sql.ref(`s.${tokenColumn}`)} = ${""}`;
  const selected = (table: string, columns: NamedColumns) => columns.map(({ column, alias }) => sql`${sql.ref(`${table}.${column}`)} as ${sql.ref(alias)}`);
  // The same compiled query (and its query id) on every run, with these values: the database handle has no plugins.
  const rowsOf = async (query: CompiledQuery, values: string[]) => (await database.db.executeQuery<Row>({ ...query, parameters: values })).rows;
  if (!sqlite) {
    const sessionFields = aliased("s", sessionColumns);
    const userFields = aliased("u", userColumns);
    const joined = sql`select ${sql.join([...selected("s", sessionFields), ...selected("u", userFields)])}
      from ${sessions} inner join ${users} on ${sql.ref("u.id")} = ${sql.ref(`s.${userIdColumn}`)} where ${byToken}`.compile(database.db);
    // Never waitless: a round trip is a wait (the chain's deadline bounds it).
    return {
      find: async (token: string, waitless = false) => {
        if (waitless) return undefined;
        const [row] = await rowsOf(joined, [token]);
        return row ? { session: recordOf(row, sessionFields), user: recordOf(row, userFields) } : null;
      },
      findAtOnce: () => undefined,
    };
  }
  const sessionFields = placed(sessionColumns);
  const userFields = placed(userColumns);
  const width = Math.max(sessionFields.length, userFields.length);
  // Each part's columns, then nulls to the union's width.
  const part = (kind: "s" | "u", table: string, columns: NamedColumns) => [
    sql`${sql.lit(kind)} as ${sql.ref("kind")}`,
    ...selected(table, columns),
    ...Array.from({ length: width - columns.length }, (_, index) => sql`null as ${sql.ref(`c${columns.length + index}`)}`),
  ];
  const userIdOfToken = sql`(select ${sql.ref(userIdColumn)} from ${sql.table(session!.modelName)} where ${sql.ref(tokenColumn)} = ${""})`;
  const sessionAndUser = sql`select ${sql.join(part("s", "s", sessionFields))} from ${sessions} where ${byToken}
    union all select ${sql.join(part("u", "u", userFields))} from ${users} where ${sql.ref("u.id")} = ${userIdOfToken}`.compile(database.db);
  const answer = (rows: Row[]) => {
    const sessionRow = rows.find((row) => row.kind === "s");
    const userRow = rows.find((row) => row.kind === "u");
    return sessionRow && userRow ? { session: recordOf(sessionRow, sessionFields), user: recordOf(userRow, userFields) } : null;
  };
  const read = straightReader(database);
  // Straight on the connection while no transaction holds it: the same statement and rows, without Kysely's
  // connection hand-over; undefined where that read cannot be made.
  const findAtOnce = (token: string) => {
    const rows = read<Row>({ ...sessionAndUser, parameters: [token, token] });
    return rows && answer(rows);
  };
  return {
    findAtOnce,
    // Otherwise through Kysely, which waits for the transaction's end and reports a failure as it reports every
    // query's (the request's 503, the dependency's count). `waitless` never waits or reports: undefined instead, for
    // the caller's own way that does.
    find: async (token: string, waitless = false) => {
      const atOnce = findAtOnce(token);
      if (atOnce !== undefined || waitless) return atOnce;
      return answer(await rowsOf(sessionAndUser, [token, token]));
    },
  };
}

/** A session and its user as read (null: none; undefined: not read, the caller's other way reads it). */
type Found = ReturnType<NonNullable<ReturnType<typeof sessionQuery>>["findAtOnce"]>;

/**
 * The session behind a page load's headers, the answer `auth.api.getSession` gives, for the case that is nearly
 * every page load: a valid session with nothing to write. Better Auth's call runs its endpoint machinery (a context
 * per call and per hook, WebCrypto) around `findSession`, whose adapter makes two queries, each with its own
 * building, debug formatting and output copies: most of a signed-in page's CPU (docs/performance.md, "Twelfth
 * round"). This reads the same cookie with the same secret, and the session and its user with one statement compiled once
 * with the fields Better Auth answers.
 * `undefined` hands the request to Better Auth: a session that has ended (deleted there), one past its absolute
 * lifetime (deleted by sessions.server.ts), one due to slide (its row and cookie renewed there), and one signed in
 * without "remember me" (never slid). tests/integration/page-session-read.test.ts holds the two answers equal on
 * both databases.
 */
export function pageSessionReader(auth: Auth, database: DatabaseHandle, absoluteDays: number) {
  let known: AuthContext | undefined;
  let query: ReturnType<typeof sessionQuery> | undefined;
  let tokenOf: ReturnType<typeof verifiedTokens> | undefined;
  /** The token of a Cookie header: null without a valid one, undefined where Better Auth must read it (not remembered). */
  const tokenIn = (context: AuthContext, cookies: string | null): string | null | undefined => {
    const signed = cookies && cookieValue(cookies, context.authCookies.sessionToken.name);
    if (!signed) return null;
    if (cookieValue(cookies, context.authCookies.dontRememberToken.name) !== null) return undefined;
    tokenOf ??= verifiedTokens(context.secret);
    return tokenOf(signed);
  };
  /** The answer for the rows found, or undefined where Better Auth has something to write. */
  const judged = (context: AuthContext, found: Found): SessionAnswer | undefined => {
    if (found === undefined) return undefined;
    if (!found) return null;
    const now = Date.now();
    const expiresAt = new Date(found.session.expiresAt as never).getTime();
    const { expiresIn, updateAge } = context.sessionConfig;
    // Written as the checks they stand for, so a date that does not parse (NaN) is handed over, never let through.
    const current = expiresAt >= now && withinAbsoluteLifetime(found.session.createdAt as never, absoluteDays);
    const slidRecently = expiresAt - expiresIn * 1000 + updateAge * 1000 > now;
    if (!current || !slidRecently) return undefined;
    return found as unknown as SessionAnswer;
  };
  /** `waitless`: never wait for the database (a transaction holding SQLite's connection, PostgreSQL) nor report its failure: undefined instead. */
  const read = async (headers: CookieHeaders, options: { waitless?: boolean } = {}): Promise<SessionAnswer | undefined> => {
    const context = (known ??= await auth.$context);
    const token = tokenIn(context, headers.get("cookie"));
    if (!token) return token === undefined ? undefined : null;
    if (query === undefined) query = sessionQuery(context, database);
    if (!query) return undefined;
    return judged(context, await query.find(token, options.waitless));
  };
  /**
   * The same answer without a promise, for a Cookie header, where nothing would wait: undefined also before the
   * first read (Better Auth's context not yet at hand) and wherever the straight read cannot be made (PostgreSQL, a
   * transaction holding SQLite's connection, a failure).
   */
  const readAtOnce = (cookies: string): SessionAnswer | undefined => {
    if (!known || !query) return undefined;
    const token = tokenIn(known, cookies);
    if (!token) return token === undefined ? undefined : null;
    return judged(known, query.findAtOnce(token));
  };
  return { read, readAtOnce };
}
