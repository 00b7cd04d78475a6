export interface HostileRequest {
  method: string;
  /** The path as generated (before it is percent-encoded for the wire). */
  path: string;
  /** The Host header sent, or "" for the default. */
  host: string;
}

export interface HostileRun {
  /** An address for each route of the route map (app/lib/route-map.ts); the host's own are added. */
  routeAddresses: readonly string[];
  /** An address for each endpoint of the sign-in layer's table (app/features/auth/auth-paths.ts, under /api/auth). */
  authAddresses: readonly string[];
  /** The site's port on 127.0.0.1. */
  port: number | string;
  /** The site's configured origin (SITE_URL): most requests claim it as their Origin. */
  siteOrigin: string;
  total: number;
  /** The same seed sends the same requests. */
  seed: number;
  /** Requests in flight at once (default 24). */
  concurrency?: number;
  onAnswer?: (answer: HostileRequest & { status: number; text: string }) => void;
  /** A request that got no answer within 15 s. */
  onSilence?: (request: HostileRequest) => void;
  /** After each request, with how many were sent so far. */
  onProgress?: (sent: number) => void;
}

export function sendHostileRequests(run: HostileRun): Promise<void>;
