import requests from "oidc-provider/lib/helpers/als.js";

/** A provider record as read: its JSON, its expiry and when it was consumed (ms since 1970). */
export interface RecordRow {
  payload: string;
  expires_at: number | string;
  consumed_at: number | string | null;
}

/** A record to be written. */
export interface HeldRow {
  kind: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  expires_at: number;
}

/** Writes held back during a refresh token's rotation (provider-records.server.ts), by kind and id. */
export interface HeldWrites {
  rows: Map<string, HeldRow>;
  consumedRefreshToken?: string;
}

/**
 * What one provider request has read of the records, by kind and id (null: absent, or a grant whose session
 * ended), so that the grant the provider looks up right after its token is not read twice; every write of the
 * request forgets it. Kept on the provider's per-request store (its Koa context), so it ends with the request and
 * never answers another one.
 */
interface RequestRecords {
  rows: Map<string, RecordRow | null>;
  held?: HeldWrites;
}

const byRequest = new WeakMap<object, RequestRecords>();

/** The current provider request's reads; undefined outside a provider request (then nothing is kept). */
export function readsOfThisRequest(): RequestRecords | undefined {
  const request = requests.getStore();
  if (!request) return undefined;
  let records = byRequest.get(request);
  if (!records) byRequest.set(request, (records = { rows: new Map() }));
  return records;
}

export function forgetReads(): void {
  readsOfThisRequest()?.rows.clear();
}

export function heldWrites(): HeldWrites | undefined {
  return readsOfThisRequest()?.held;
}

/** Runs `work` with the request's writes held back, and hands them over with its answer (nothing held on failure). */
export async function holdWrites<T>(work: () => Promise<T>): Promise<{ held: HeldWrites; answer: T }> {
  const records = readsOfThisRequest();
  if (!records) throw new Error("writes are held only inside a provider request");
  const held: HeldWrites = { rows: new Map() };
  records.held = held;
  try {
    return { held, answer: await work() };
  } finally {
    records.held = undefined;
  }
}
