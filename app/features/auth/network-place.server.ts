import { BlockList, isIP } from "node:net";

/**
 * Where a session's network is, said only when it is known without looking anything up: loopback and private
 * addresses are 「本機網路」 (the same computer or the home / school network behind one router). A public address
 * would need a GeoIP database (tens of MB, monthly updates, often wrong for Taiwanese mobile carriers), so it is
 * named as nothing rather than guessed.
 */
const local = new BlockList();
local.addSubnet("127.0.0.0", 8, "ipv4");
local.addSubnet("10.0.0.0", 8, "ipv4");
local.addSubnet("172.16.0.0", 12, "ipv4");
local.addSubnet("192.168.0.0", 16, "ipv4");
local.addSubnet("169.254.0.0", 16, "ipv4");
local.addAddress("::1", "ipv6");
local.addSubnet("fc00::", 7, "ipv6");
local.addSubnet("fe80::", 10, "ipv6");

export function networkPlace(ip: string | null | undefined): string | null {
  const address = (ip ?? "").trim().replace(/^::ffff:(?=\d+\.)/, "");
  const family = isIP(address);
  if (!family) return null;
  return local.check(address, family === 4 ? "ipv4" : "ipv6") ? "本機網路" : null;
}
