/**
 * A session's browser and system in plain words, from its User-Agent, for the list of signed-in devices. Only
 * the common cases are told apart (the list helps a user recognise their own devices, nothing depends on it);
 * anything else is named as unknown rather than guessed.
 */

// Order matters: Edge, Opera, Samsung Internet and the in-app browsers also say "Chrome" or "Safari".
const browsers: [RegExp, string][] = [
  [/\bLine\//, "LINE 內建瀏覽器"],
  [/\bFBA[NV]\/|\bFB_IAB\b/, "Facebook 內建瀏覽器"],
  [/\bInstagram\b/, "Instagram 內建瀏覽器"],
  [/\bEdg(A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOPT\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\b(Headless)?Chrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const systems: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

const first = (list: [RegExp, string][], userAgent: string) => list.find(([pattern]) => pattern.test(userAgent))?.[1];

/** `Windows 上的 Chrome`, `iPhone 上的 Safari`, `Android 上的瀏覽器`, `Firefox`, or `不明的裝置`. */
export function deviceName(userAgent: string | null | undefined): string {
  const agent = userAgent ?? "";
  const browser = first(browsers, agent);
  const system = first(systems, agent);
  if (browser && system) return `${system} 上的 ${browser}`;
  if (system) return `${system} 上的瀏覽器`;
  return browser ?? "不明的裝置";
}
