const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for http(s)://localhost, 127.0.0.1 and [::1] on any port; false for anything else, URL or not. */
export function isLoopbackOrigin(origin: string): boolean {
  return URL.canParse(origin) && loopbackHosts.has(new URL(origin).hostname);
}
