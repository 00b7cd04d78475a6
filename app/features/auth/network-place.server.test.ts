import { describe, expect, it } from "vitest";
import { networkPlace } from "./network-place.server";

describe("networkPlace", () => {
  it.each([
    ["127.0.0.1", "本機網路"],
    ["::1", "本機網路"],
    ["::ffff:192.168.1.20", "本機網路"],
    ["10.1.2.3", "本機網路"],
    ["172.20.0.5", "本機網路"],
    ["fd12:3456::1", "本機網路"],
    ["172.32.0.1", null],
    ["203.69.1.1", null],
    ["2001:b000::1", null],
    ["", null],
    ["not-an-ip", null],
    [null, null],
  ])("%s → %s", (ip, expected) => {
    expect(networkPlace(ip)).toBe(expected);
  });
});
