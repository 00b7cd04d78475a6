/**
 * Weeks run Monday to Sunday, as calendars in Taiwan do. A week is named by its Monday as a local
 * `YYYY-MM-DD` string, so it survives JSON and never shifts with time zones.
 */

export const weekdays = ["一", "二", "三", "四", "五", "六", "日"] as const;

/** Day index: 0 = Monday … 6 = Sunday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export const allWeekdays: Weekday[] = [0, 1, 2, 3, 4, 5, 6];

export function weekdayName(day: Weekday): string {
  return `星期${weekdays[day]}`;
}

export function toIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  return `${date.getFullYear()}-${month}-${day}`;
}

function fromIsoDate(iso: string): Date {
  const [year, month, day] = iso.split("-").map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1);
}

function addDays(iso: string, days: number): string {
  const date = fromIsoDate(iso);
  date.setDate(date.getDate() + days);
  return toIsoDate(date);
}

/** The Monday of the week that holds `date`. */
export function mondayOf(date: Date): string {
  const shift = (date.getDay() + 6) % 7; // getDay(): Sunday = 0
  const monday = new Date(date.getFullYear(), date.getMonth(), date.getDate() - shift);
  return toIsoDate(monday);
}

/**
 * The week after `weekStart`, or this week when the table has been left for longer:
 * a parent pressing "new week" on Sunday evening prepares next week, one coming back after
 * a month gets the current week.
 */
export function nextWeekStart(weekStart: string, today: Date): string {
  const following = addDays(weekStart, 7);
  const current = mondayOf(today);
  return current > following ? current : following;
}

/**
 * `11/23`, as Intl.DateTimeFormat("zh-TW", { month: "numeric", day: "numeric" }) writes it, without Intl: building
 * that formatter loads the locale's data, one long task on a slow phone (decision 710).
 */
function monthDay(iso: string): string {
  const [, month, day] = iso.split("-").map(Number);
  return `${month}/${day}`;
}

/** For example `11/23（一）～11/29（日）`. */
export function weekLabel(weekStart: string): string {
  return `${monthDay(weekStart)}（一）～${monthDay(addDays(weekStart, 6))}（日）`;
}

/** Short words for a set of days: 每天, 週一到週五, 週末, or a list such as 週一、三、五. */
export function daysSummary(days: readonly Weekday[]): string {
  const key = [...days].sort().join("");
  if (key === "0123456") return "每天";
  if (key === "01234") return "週一到週五";
  if (key === "56") return "週末";
  if (key === "") return "沒有選日子";
  return `週${[...days].sort().map((day) => weekdays[day]).join("、")}`;
}
