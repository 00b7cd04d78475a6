import { describe, expect, it } from "vitest";
import { daysSummary, mondayOf, toIsoDate, weekLabel } from "./week";

describe("weeks, Monday to Sunday", () => {
  it("finds the Monday of any day, Sunday belonging to the week before it", () => {
    expect(mondayOf(new Date(2026, 10, 23))).toBe("2026-11-23");
    expect(mondayOf(new Date(2026, 10, 29))).toBe("2026-11-23");
    expect(mondayOf(new Date(2026, 10, 30))).toBe("2026-11-30");
    expect(mondayOf(new Date(2027, 0, 1))).toBe("2026-12-28");
  });

  it("names a week by its first and last day", () => {
    expect(weekLabel("2026-12-28")).toBe("12/28（一）～1/3（日）");
  });

  it("writes the days as Taiwan's calendar format does, every week of a year", () => {
    const monthDay = new Intl.DateTimeFormat("zh-TW", { month: "numeric", day: "numeric" });
    for (let week = 0; week < 53; week += 1) {
      const monday = new Date(2026, 0, 5 + week * 7);
      const sunday = new Date(2026, 0, 11 + week * 7);
      expect(weekLabel(toIsoDate(monday))).toBe(`${monthDay.format(monday)}（一）～${monthDay.format(sunday)}（日）`);
    }
  });

  it("summarises the days of a task in words", () => {
    expect(daysSummary([0, 1, 2, 3, 4, 5, 6])).toBe("每天");
    expect(daysSummary([0, 1, 2, 3, 4])).toBe("週一到週五");
    expect(daysSummary([5, 6])).toBe("週末");
    expect(daysSummary([4, 0, 2])).toBe("週一、三、五");
  });
});
