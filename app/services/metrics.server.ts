import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, register } from "prom-client";

/**
 * The site's Prometheus metrics (prom-client's default registry), served only on METRICS_PORT (server.mjs; with
 * several workers the primary sums every worker's registry). Each helper is one label lookup and an add: cheap
 * enough for every request. Labels are bounded: routes are patterns (a 404 is one label), ways in are the
 * sign-in layer's endpoint paths.
 */

const requests = new Counter({ name: "site_http_requests_total", help: "HTTP answers by route pattern, method and status", labelNames: ["route", "method", "status"] });
const latency = new Histogram({
  name: "site_http_request_duration_seconds",
  help: "Time to answer, by route pattern",
  labelNames: ["route", "method"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});
const signIns = new Counter({ name: "site_sign_ins_total", help: "Sign-in attempts by way in and outcome", labelNames: ["way", "outcome"] });
const refreshes = new Counter({ name: "site_app_token_refreshes_total", help: "App refresh-token exchanges by outcome (reuse: a replayed token ended its family)", labelNames: ["outcome"] });
const refusals = new Counter({ name: "site_rate_limit_refusals_total", help: "Requests refused with 429 by route pattern", labelNames: ["route"] });
const dependencyErrors = new Counter({ name: "site_dependency_errors_total", help: "Failed database queries and Redis errors", labelNames: ["dependency"] });
const firebasePasswords = new Counter({
  name: "site_firebase_passwords_total",
  help: "Imported Firebase password checks: verified, refused, rehashed (argon2id replaced the Firebase hash)",
  labelNames: ["outcome"],
});
const firebaseExchanges = new Counter({ name: "site_firebase_token_exchanges_total", help: "Firebase ID tokens traded for the site's tokens, by outcome", labelNames: ["outcome"] });
const pageCache = new Counter({ name: "site_page_cache_total", help: "Anonymous page cache lookups by result", labelNames: ["result"] });
const signedInPages = new Counter({
  name: "site_signed_in_pages_total",
  help: "Prerendered pages asked for with a session: filled in from a template (in front of the middleware chain, or by it), or rendered whole (no session, no template)",
  labelNames: ["result", "layer"],
});

export function countRequest(route: string, method: string, status: number, seconds: number): void {
  requests.inc({ route, method, status: String(status) });
  latency.observe({ route, method }, seconds);
  if (status === 429) refusals.inc({ route });
}

export const countSignIn = (way: string, outcome: "success" | "refused") => signIns.inc({ way, outcome });
export const countTokenRefresh = (outcome: "success" | "refused" | "reuse") => refreshes.inc({ outcome });
export const countDependencyError = (dependency: "database" | "redis") => dependencyErrors.inc({ dependency });
export const countFirebasePassword = (outcome: "verified" | "refused" | "rehashed") => firebasePasswords.inc({ outcome });
export const countFirebaseExchange = (outcome: "success" | "refused" | "limited") => firebaseExchanges.inc({ outcome });
export const countPageCache = (result: "hit" | "miss") => pageCache.inc({ result });
export const countSignedInPage = (result: "filled" | "rendered", layer: "up-front" | "chain") => signedInPages.inc({ result, layer });

/**
 * The mail outbox's depth and its oldest waiting message's age, read at scrape time. Only the worker that runs the
 * outbox reports them; "max" keeps the sum over workers from counting one queue twice.
 */
export function watchOutbox(read: () => Promise<{ depth: number; oldestAt: string | null }>): void {
  let last: Promise<{ depth: number; oldestAt: string | null }> | undefined;
  const reading = () => (last ??= read().finally(() => setTimeout(() => (last = undefined), 1_000)));
  new Gauge({
    name: "site_mail_outbox_depth",
    help: "Mails waiting to be delivered",
    aggregator: "max",
    async collect() {
      this.set((await reading()).depth);
    },
  });
  new Gauge({
    name: "site_mail_outbox_oldest_age_seconds",
    help: "Age of the oldest mail still waiting (0: none)",
    aggregator: "max",
    async collect() {
      const { oldestAt } = await reading();
      this.set(oldestAt ? Math.max(0, (Date.now() - new Date(oldestAt).getTime()) / 1000) : 0);
    },
  });
}

/**
 * `site_info 1` with what this start runs with (server/start-facts.ts): build version, Node, database, Redis, ways in,
 * the number of registered apps (not their ids) and the bot check. "first": workers of one start say the same.
 */
export function reportSiteInfo(facts: { version: string; node: string; database: string; redis: boolean; waysIn: readonly string[]; apps: readonly string[]; botCheck: string }): void {
  const gauge = new Gauge({
    name: "site_info",
    help: "What this start runs with: build version, Node, database, Redis, ways in, registered apps, bot check",
    labelNames: ["version", "node", "database", "redis", "ways_in", "apps", "bot_check"],
    aggregator: "first",
  });
  gauge.set(
    { version: facts.version, node: facts.node, database: facts.database, redis: String(facts.redis), ways_in: facts.waysIn.join(","), apps: String(facts.apps.length), bot_check: facts.botCheck },
    1,
  );
}

let defaultsOn = false;
/** Node's own metrics (memory, event-loop delay, handles), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ prefix: "site_" });
  // A cluster worker answers the primary's requests for this registry. prom-client 15 adds the worker's message
  // listener only when an AggregatorRegistry is made, so one is made here (unused otherwise); without it the
  // primary's scrape waited 5 s for the workers and answered 500.
  AggregatorRegistry.setRegistries([register]);
  new AggregatorRegistry();
}

/** This process's metrics in the Prometheus text format. */
export const metricsText = () => register.metrics();
export const metricsContentType = register.contentType;
