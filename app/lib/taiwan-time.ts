/** Taiwan keeps UTC+8 all year (no daylight saving), so a date needs no time-zone database. */
const taiwanOffsetMs = 8 * 3600 * 1000;

const inTaiwan = (isoTime: string) => new Date(Date.parse(isoTime) + taiwanOffsetMs).toISOString();

/** `2026-11-26T17:30:00.000Z` → `2026 年 11 月 27 日` (the calendar date in Taiwan), the same on server and browser. */
export function formatTaiwanDate(isoTime: string): string {
  const [year, month, day] = inTaiwan(isoTime).slice(0, 10).split("-").map(Number);
  return `${year} 年 ${month} 月 ${day} 日`;
}

/** `2026-11-26T17:30:00.000Z` → `2026 年 11 月 27 日 01:30` (Taiwan time, 24-hour clock). */
export function formatTaiwanDateTime(isoTime: string): string {
  return `${formatTaiwanDate(isoTime)} ${inTaiwan(isoTime).slice(11, 16)}`;
}
