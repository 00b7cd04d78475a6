export interface LaunchOptions {
  /** Port to listen on (default 3000); the origin is http://localhost:<port> and becomes SITE_URL. */
  port?: number;
  /** Build folder (default: BUILD_DIR or "build"). */
  buildDir?: string;
  /** Extra or overriding environment variables (e.g. DATABASE_URL, TRUSTED_PROXIES). */
  env?: Record<string, string>;
  /** false: return at once, e.g. to watch a bad configuration stop the server (default true). */
  waitForHealth?: boolean;
  /** How long to wait for /healthz (default 30 s). */
  timeoutMs?: number;
}

export interface LaunchedServer {
  origin: string;
  /** The server's process id (its memory: residentMemoryMb). */
  pid: number;
  /** The temp folder given as DATA_DIR (the SQLite file lives there); removed by stop(). */
  dataDir: string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, wait for the exit, remove the data folder. */
  stop(): Promise<void>;
}

export function launchServer(options?: LaunchOptions): Promise<LaunchedServer>;

/** Resident memory of a process on this machine, in MB (from /proc). */
export function residentMemoryMb(pid: number): number;
