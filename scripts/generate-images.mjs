// Renders the raster images of public/ from SVG in headless Chromium: app icons (192, 512, 180 for iOS) and
// the 1200×630 Open Graph image. Run again after changing the artwork: node scripts/generate-images.mjs
// The artwork uses no text, so the result does not depend on the fonts of the machine that renders it.
import fs from "node:fs";
import { chromium } from "playwright-core";

const brand = "#4a6bff";
const sun = "#ffb938";
const star = "M32 12l5.9 12 13.1 1.9-9.5 9.3 2.2 13.1L32 42.1 20.3 48.3l2.2-13.1L13 25.9 26.1 24z";

// Full-bleed square with the star inside the maskable safe zone (the central 80 %).
const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${brand}"/>
<g transform="translate(6.4 6.4) scale(0.8)"><path d="${star}" fill="${sun}"/></g></svg>`;

const checklistRow = (y, done) => `
  <rect x="700" y="${y}" width="360" height="72" rx="18" fill="#fff"/>
  <circle cx="744" cy="${y + 36}" r="20" fill="${done ? "#2fb380" : "#dde1ee"}"/>
  ${done ? `<path d="M734 ${y + 36}l7 7 14-14" stroke="#fff" stroke-width="6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>` : ""}
  <rect x="784" y="${y + 26}" width="${done ? 220 : 180}" height="20" rx="10" fill="#eef1ff"/>`;

const ogImage = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="${brand}"/>
  <circle cx="1120" cy="80" r="160" fill="#6f89ff"/>
  <circle cx="80" cy="600" r="200" fill="#3b5bdb"/>
  <g transform="translate(140 135) scale(5.6)"><path d="${star}" fill="${sun}"/></g>
  <rect x="660" y="150" width="440" height="360" rx="32" fill="#eef1ff" opacity="0.35"/>
  ${checklistRow(180, true)}${checklistRow(276, true)}${checklistRow(372, false)}
</svg>`;

const targets = [
  { file: "public/icon-192.png", svg: icon, width: 192, height: 192 },
  { file: "public/icon-512.png", svg: icon, width: 512, height: 512 },
  { file: "public/apple-touch-icon.png", svg: icon, width: 180, height: 180 },
  { file: "public/og-image.png", svg: ogImage, width: 1200, height: 630 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  for (const { file, svg, width, height } of targets) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(`<style>*{margin:0}svg{display:block;width:${width}px;height:${height}px}</style>${svg}`);
    fs.writeFileSync(file, await page.screenshot({ type: "png" }));
    await page.close();
    console.log(`${file} ${width}×${height}`);
  }
} finally {
  await browser.close();
}
