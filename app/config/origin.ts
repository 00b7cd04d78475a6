const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for http(s)://localhost, 127.0.0.1 and [::1] on any port; false for anything else, URL or not. */
export function isLoopbackOrigin(origin: string): boolean {
  return URL.canParse(origin) && loopbackHosts.has(new URL(origin).hostname);
}

/** A listen address or client address on this machine only: localhost, 127.0.0.0/8 or ::1 (also IPv4-mapped). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/^::ffff:/, "");
  return bare === "localhost" || bare === "::1" || /^127(?:\.\d{1,3}){3}$/.test(bare);
}
