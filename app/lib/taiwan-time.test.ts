import { describe, expect, it } from "vitest";
import { formatTaiwanDate, formatTaiwanDateTime } from "./taiwan-time";

describe("Taiwan time", () => {
  it("gives the calendar date in Taiwan, which may be the next day in UTC+8", () => {
    expect(formatTaiwanDate("2026-11-26T17:30:00.000Z")).toBe("2026 年 11 月 27 日");
    expect(formatTaiwanDate("2026-11-26T15:59:00.000Z")).toBe("2026 年 11 月 26 日");
  });

  it("adds the time of day on a 24-hour clock", () => {
    expect(formatTaiwanDateTime("2026-11-26T17:30:00.000Z")).toBe("2026 年 11 月 27 日 01:30");
    expect(formatTaiwanDateTime("2026-01-01T04:05:59.999Z")).toBe("2026 年 1 月 1 日 12:05");
  });
});
