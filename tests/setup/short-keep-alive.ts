/**
 * A test server stops as the site does in production: it waits for every open connection, idle keep-alive ones
 * included, to close (server.mjs). Node's fetch keeps an idle connection for 4 s, so every stop of a test server
 * waited about that long for the test's own idle connections: minutes of a run. The tests' fetch lets an idle
 * connection go after 100 ms instead; connections still carry back-to-back requests.
 * Node's fetch takes its dispatcher from this global (undici's documented hand-over), created on the first fetch.
 */
const dispatcherKey = Symbol.for("undici.globalDispatcher.1");
await fetch("data:,");
const globals = globalThis as unknown as Record<symbol, object>;
const Agent = globals[dispatcherKey]?.constructor as (new (options: { keepAliveTimeout: number; keepAliveMaxTimeout: number }) => object) | undefined;
if (!Agent) throw new Error("Node's fetch has no global dispatcher to replace");
globals[dispatcherKey] = new Agent({ keepAliveTimeout: 100, keepAliveMaxTimeout: 100 });
export {};
