// Hashes of the inline scripts and styles of every prerendered page, for their Content-Security-Policy
// (docs/security.md). Prerendered files are sent as they are, so they cannot carry a per-answer nonce; the
// server looks the page's hashes up in <build>/csp-hashes.json instead. Runs after `react-router build`, on
// whichever pages the build prerendered.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const buildDir = process.env.BUILD_DIR || "build";
const clientDir = path.join(buildDir, "client");

const hash = (text) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

function* htmlFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith(".html")) yield full;
  }
}

/** The address a prerendered file answers: about/index.html → /about, index.html → /. */
function addressOf(file) {
  const relative = path.relative(clientDir, file).split(path.sep).join("/");
  const withoutIndex = relative.replace(/(^|\/)index\.html$/, "").replace(/\.html$/, "");
  return `/${withoutIndex}`;
}

const pages = {};
const styles = new Set();
for (const file of htmlFiles(clientDir)) {
  const html = fs.readFileSync(file, "utf8");
  const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = ""]) => !/\ssrc=/.test(attributes) && !/type="application\/(ld\+)?json"/.test(attributes))
    .map(([, , body]) => hash(body));
  for (const [, , body] of html.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style>/g)) styles.add(hash(body));
  pages[addressOf(file)] = [...new Set(scripts)];
}

fs.writeFileSync(path.join(buildDir, "csp-hashes.json"), JSON.stringify({ pages, styles: [...styles] }));
console.log(`CSP hashes for ${Object.keys(pages).length} prerendered pages, ${styles.size} inline styles`);
