import { describe, expect, it } from "vitest";
import { resolveClientIp, trustedProxyList } from "./client-ip.server";

describe("resolveClientIp", () => {
  const trusted = trustedProxyList(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

  it("takes the socket's address from an untrusted peer, whatever it forwards", () => {
    expect(resolveClientIp("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9");
  });

  it("takes the right-most untrusted address behind trusted proxies, CIDR ranges included", () => {
    expect(resolveClientIp("::ffff:127.0.0.1", "198.51.100.1, 203.0.113.5, 10.1.2.3", trusted)).toBe("203.0.113.5");
    expect(resolveClientIp("fd12::1", "2001:db8::7", trusted)).toBe("2001:db8::7");
  });

  it("falls back to the peer when the forwarded value is not an address", () => {
    expect(resolveClientIp("10.9.9.9", "not-an-ip", trusted)).toBe("10.9.9.9");
    expect(resolveClientIp("10.9.9.9", undefined, trusted)).toBe("10.9.9.9");
  });
});
