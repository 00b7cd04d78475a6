const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for http(s)://localhost, 127.0.0.1 and [::1] on any port. */
export function isLoopbackOrigin(origin: string): boolean {
  return loopbackHosts.has(new URL(origin).hostname);
}
