import type { PublicEnv } from "~/config/public-env";

/** The web app manifest, built from the configuration so the name and colour have one source. */
export function webManifest(env: Pick<PublicEnv, "productName" | "themeColor">) {
  return {
    name: env.productName,
    short_name: env.productName,
    description: "幫助孩子養成獨立與責任感的遊戲化任務管理 App",
    lang: "zh-Hant-TW",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: env.themeColor,
    icons: [
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
    ],
  };
}
