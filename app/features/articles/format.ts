/** `2026-11-02` → `2026 年 11 月 2 日`, without time zones (the same on the server and in the browser). */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${year} 年 ${month} 月 ${day} 日`;
}
