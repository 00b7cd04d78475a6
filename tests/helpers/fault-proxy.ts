import net from "node:net";

/**
 * A TCP proxy between the site and one dependency (PostgreSQL, Redis, an S3 server) that a test turns into the
 * faults a network or a hung server produces, Jepsen-style:
 * - `drop()`: every open connection is cut (a restart, a fail-over); new ones pass;
 * - `blackHole()`: connections are accepted, old and new, and nothing is passed on (a hung server);
 * - `discard()`: connections stay open and are made as usual, but every byte either way is thrown away (a peer that
 *   keeps the connection and drops the data); `restore()` lets bytes through again on the same connections;
 * - `slow(ms)`: every chunk either way is held `ms` before it is passed on, in order (a congested link, a server
 *   that answers slowly);
 * - `refuse()`: nothing listens any more (new connections are refused) and open ones are reset;
 * - `restore()`: traffic passes again.
 * Loopback only: it listens on 127.0.0.1 and the target is a local server.
 */
export type FaultMode = "pass" | "black-hole" | "discard" | "refused" | "slow";

export interface FaultProxy {
  port: number;
  mode(): FaultMode;
  drop(): void;
  blackHole(): void;
  discard(): void;
  slow(msPerChunk: number): void;
  refuse(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream?: net.Socket;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = "pass";
  let delayMs = 0;
  const pairs = new Set<Pair>();
  // Slow mode: each socket's chunks leave in order, each `delayMs` after the one before it; chunks still held when
  // traffic passes again keep their place in the queue.
  const queued = new WeakMap<net.Socket, Promise<void>>();
  const relay = (to: net.Socket | undefined, chunk: Buffer) => {
    if (!to || (mode !== "pass" && mode !== "slow")) return;
    const wait = mode === "slow" ? delayMs : 0;
    const previous = queued.get(to);
    if (!previous && wait === 0) {
      to.write(chunk);
      return;
    }
    const sent: Promise<void> = (previous ?? Promise.resolve())
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, wait)))
      .then(() => {
        if (!to.destroyed) to.write(chunk);
        if (queued.get(to) === sent) queued.delete(to);
      });
    queued.set(to, sent);
  };

  const end = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on("error", () => end(pair));
    upstream.on("close", () => end(pair));
    upstream.on("data", (chunk: Buffer) => relay(pair.client, chunk));
  };

  const accept = (client: net.Socket) => {
    const pair: Pair = { client };
    pairs.add(pair);
    client.on("error", () => end(pair));
    client.on("close", () => end(pair));
    client.on("data", (chunk: Buffer) => relay(pair.upstream, chunk));
    // A black hole takes the connection and never makes its own.
    if (mode !== "black-hole") connectUpstream(pair);
  };

  let server = net.createServer(accept);
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  const cutAll = () => {
    for (const pair of [...pairs]) end(pair);
  };

  return {
    port,
    mode: () => mode,
    drop: cutAll,
    blackHole: () => {
      mode = "black-hole";
    },
    discard: () => {
      mode = "discard";
    },
    slow: (msPerChunk) => {
      mode = "slow";
      delayMs = msPerChunk;
    },
    async refuse() {
      mode = "refused";
      const stopped = stopListening();
      cutAll();
      await stopped;
    },
    async restore() {
      const previous = mode;
      mode = "pass";
      if (previous === "refused") {
        server = net.createServer(accept);
        await listen(port);
      }
      // A black hole's connections were never joined (new ones) or lost bytes (old ones): a server that comes
      // back after hanging has dropped them all.
      if (previous === "black-hole") cutAll();
    },
    async close() {
      cutAll();
      if (mode !== "refused") await stopListening();
    },
  };
}
