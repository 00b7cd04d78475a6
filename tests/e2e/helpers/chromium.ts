/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same build as `chromium`): what Playwright
 * itself runs headless tests in. The full browser in its headless mode cost 42 % more CPU on the same files
 * (decision 005, 2026-11-29 addendum). No Vitest import here: the e2e project's global setup reads it too.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

// Without the background-networking flags Chromium floods a closed network with refused connections.
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
