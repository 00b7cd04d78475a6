import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { residentMemoryMb } from "~tests/helpers/launch-server.mjs";

/** The origin the fault tests configure; requests go to whatever port the server picked (PORT=0). */
export const siteUrl = "http://localhost:4210";

export interface SiteProcess {
  baseURL: string;
  child: ChildProcess;
  dataDir: string;
  output(): string;
  /** Resident memory of the server process, in MB (from /proc). */
  rssMb(): number;
  /** Sends a signal and waits for the exit: its code and how long it took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/** Starts the built site like `npm start` (production build), on a free port, with its own data folder unless given. */
export async function startSite(env: Record<string, string> = {}, options: { dataDir?: string; expectFailure?: boolean } = {}): Promise<SiteProcess> {
  const buildDir = process.env.BUILD_DIR || "build-test";
  if (!fs.existsSync(`${buildDir}/server/index.js`)) throw new Error(`No build in ${buildDir}: the test command builds it first (npm test).`);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "site-faults-"));
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      SITE_URL: siteUrl,
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      // One process (its pid is the one signalled and measured); a test of workers passes its own count.
      WEB_CONCURRENCY: "1",
      // A busy test machine must not turn slow successes into 503s; the fault tests of the deadline set 5 s.
      REQUEST_DEADLINE_MS: "30000",
      // The faults sign up and ask for mail through the API; the bot check has tests of its own (a loopback site only).
      BOT_CHECK: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const site: SiteProcess = {
    baseURL: "",
    child,
    dataDir,
    output: () => output,
    rssMb: () => residentMemoryMb(child.pid ?? 0),
    async stop(signal = "SIGTERM") {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      return { code, ms: Date.now() - started };
    },
  };
  if (options.expectFailure) return site;
  // Generous: a busy machine starts slowly (the start-up itself is bounded by the server's own timeouts).
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const port = /"port":(\d+)/.exec(output)?.[1];
    if (port) {
      site.baseURL = `http://127.0.0.1:${port}`;
      // Warm up: the sign-in layer starts on its first request, React Router loads its build on its first.
      await fetch(`${site.baseURL}/api/auth/get-session`, { signal: AbortSignal.timeout(30_000) });
      await fetch(`${site.baseURL}/api/analytics`, { signal: AbortSignal.timeout(30_000) });
      return site;
    }
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`Server did not start within 60 s:\n${output}`);
}

/** Ports nobody listens on now (the kernel's picks, all held until all are known), for servers that must know their ports before they start. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** One request over http or https (trusting `ca`, which fetch cannot): status and headers. */
export function statusAndHeaders(url: string, options: { method?: string; ca?: Buffer } = {}): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const method = options.method ?? "GET";
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, { method, ca: options.ca, timeout: 10_000 }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`${method} ${url} timed out`)));
    outgoing.on("error", reject);
    outgoing.end();
  });
}

export interface TlsProxy {
  /** https://localhost:<tls port> */
  origin: string;
  /** The self-signed certificate for localhost, and its file. */
  ca: Buffer;
  caFile: string;
  /** nginx's error log so far: why it answered a request itself. */
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * nginx with TLS on localhost in front of instances on the given ports, as the deploy recipe runs it
 * (deploy/start-proxy.sh); with `http`, plain http on that port redirects to https.
 */
export async function startTlsProxy(upstreamPorts: number[], ports: { tls: number; http?: number }): Promise<TlsProxy> {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "site-proxy-"));
  const child = spawn("bash", ["deploy/start-proxy.sh", run], {
    env: { ...process.env, UPSTREAM_PORTS: upstreamPorts.join(" "), TLS_PORT: String(ports.tls), HTTP_PORT: ports.http ? String(ports.http) : "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const caFile = path.join(run, "cert.pem");
  const origin = `https://localhost:${ports.tls}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(run, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if (fs.existsSync(caFile)) {
        const ca = fs.readFileSync(caFile);
        await statusAndHeaders(`${origin}/readyz`, { ca });
        const errorLog = () => (fs.existsSync(path.join(run, "error.log")) ? fs.readFileSync(path.join(run, "error.log"), "utf8") : "");
        return { origin, ca, caFile, errorLog, stop };
      }
    } catch {
      // nginx is not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`nginx did not start:\n${output}`);
}

/** A server that accepts connections and never says a word. */
export async function startBlackHole() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A JSON POST from the site's own origin (the sign-in layer refuses others), from a given client address. */
export function postJson(baseURL: string, pathname: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseURL}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: siteUrl, ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
}

/**
 * A form post as the browser sends it: to the site's own address (Host and Origin both SITE_URL's, which fetch
 * cannot set), with the answer's status and where it redirects.
 */
export function postForm(site: SiteProcess, pathname: string, headers: Record<string, string>, form: URLSearchParams): Promise<{ status: number; location: string | null }> {
  const body = form.toString();
  const { hostname, port } = new URL(site.baseURL);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, method: "POST", path: pathname, headers: { ...headers, host: new URL(siteUrl).host, origin: siteUrl, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
