import { UAParser } from "ua-parser-js";

/**
 * A session's browser and system in plain words, from its User-Agent, for the list of signed-in devices and the
 * new-device notice. Only the common cases are named (the list helps a parent recognise their own devices,
 * nothing depends on it); anything else is named as unknown rather than guessed. Versions and the phone's model
 * come from ua-parser-js, and only where they tell devices apart: Windows 10 and 11 send the same string and
 * macOS has said 10.15.7 for years, so neither gets a system version.
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

/**
 * What an app's sign-in keeps as its session's user agent (app-sessions.server.ts): 「親子行事曆（App）」, shown
 * as it is, so 帳號安全 names the app rather than an unknown device; a name that already says it is an app
 * (「任務小勇士 App」) is shown without the mark, never 「任務小勇士 App（App）」.
 */
export const appSessionAgent = (appName: string) => `${appName}（App）`;
const appNameOf = (agent: string) => {
  if (!agent.endsWith(appSessionAgent(""))) return undefined;
  const name = agent.slice(0, -appSessionAgent("").length);
  return /\bapp$/i.test(name) ? name : agent;
};

const first = (list: [RegExp, string][], userAgent: string) => list.find(([pattern]) => pattern.test(userAgent))?.[1];

/** `Windows 上的 Chrome`, `iPhone 上的 Safari`, `Android 上的瀏覽器`, `Firefox`, `親子行事曆（App）`, `任務小勇士 App` or `不明的裝置`. */
export function deviceName(userAgent: string | null | undefined): string {
  const agent = userAgent ?? "";
  const app = appNameOf(agent);
  if (app) return app;
  const browser = first(browsers, agent);
  const system = first(systems, agent);
  if (browser && system) return `${system} 上的 ${browser}`;
  if (system) return `${system} 上的瀏覽器`;
  return browser ?? "不明的裝置";
}

const versionedBrowsers = new Set(["Edge", "Opera", "Samsung Internet", "Firefox", "Chrome", "Safari"]);
const versionedSystems = new Set(["iPhone", "iPad", "Android", "ChromeOS"]);

/** Labels already made, by User-Agent: an account's activity list names the same few browsers row after row. */
const labels = new Map<string, string>();
const labelsKept = 500;

/**
 * The name with what tells two alike devices apart: `Android 14 上的 Chrome 126（Pixel 8）`,
 * `iPhone（iOS 17.5）上的 Safari 17`, `Linux 上的 Chrome 156`. Parsing one User-Agent costs about 0.1 ms, so a
 * label is made once and kept (the oldest dropped past 500).
 */
export function deviceLabel(userAgent: string | null | undefined): string {
  const agent = userAgent ?? "";
  let label = labels.get(agent);
  if (label === undefined) {
    label = labelOf(agent);
    if (labels.size >= labelsKept) labels.delete(labels.keys().next().value!);
    labels.set(agent, label);
  }
  return label;
}

function labelOf(agent: string): string {
  const app = appNameOf(agent);
  if (app) return app;
  const browser = first(browsers, agent);
  const system = first(systems, agent);
  if (!browser && !system) return "不明的裝置";
  const parsed = new UAParser(agent).getResult();
  const major = browser && versionedBrowsers.has(browser) ? parsed.browser.major : undefined;
  const systemVersion = system && versionedSystems.has(system) ? parsed.os.version : undefined;
  const model = system === "Android" && parsed.device.model ? `（${parsed.device.model}）` : "";
  const browserPart = browser ? `${browser}${major ? ` ${major}` : ""}` : "瀏覽器";
  if (!system) return browserPart;
  const systemPart =
    system === "iPhone" || system === "iPad" ? `${system}${systemVersion ? `（iOS ${systemVersion}）` : ""}` : `${system}${systemVersion ? ` ${systemVersion}` : ""}`;
  return `${systemPart}${systemPart.endsWith("）") ? "" : " "}上的 ${browserPart}${model}`;
}
