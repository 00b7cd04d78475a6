import fs from "node:fs";
import path from "node:path";
import type { SocialProvider } from "./auth-client";
import { socialButtonLabels } from "./social-buttons";

const providers = Object.keys(socialButtonLabels) as SocialProvider[];

/**
 * The social sign-in buttons a build's prerendered `/login` shows (found by their words), or null when the build
 * has no such page. `/login` and `/signup` are files: they keep the buttons of build time whatever the server
 * later starts with.
 */
export function builtSignInButtons(buildDir: string): SocialProvider[] | null {
  let html: string;
  try {
    html = fs.readFileSync(path.join(buildDir, "client", "login", "index.html"), "utf8");
  } catch {
    return null;
  }
  return providers.filter((provider) => html.includes(socialButtonLabels[provider]));
}

/** The loud start-up warning when the running configuration offers other social sign-ins than those pages show. */
export function signInButtonsMismatch(buildDir: string, running: readonly SocialProvider[]): string | null {
  const built = builtSignInButtons(buildDir);
  if (!built || (built.length === running.length && built.every((provider) => running.includes(provider)))) return null;
  const words = (list: readonly SocialProvider[]) => (list.length ? list.map((provider) => socialButtonLabels[provider]).join("、") : "沒有");
  return (
    `預先產生的登入與註冊頁顯示的社群登入按鈕（${words(built)}）和伺服器現在的設定（${words(running)}）不同：` +
    `這兩頁會顯示建置時的按鈕。請用現在的設定重新執行 npm run build。`
  );
}
