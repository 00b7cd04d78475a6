/**
 * The Content-Security-Policy of every page (ASVS 3.4.3): scripts only by this answer's nonce (server-rendered
 * pages) or by the hashes of the page's own inline scripts computed at build time (prerendered pages), and
 * whatever those trusted scripts load ('strict-dynamic'). Nothing may frame the site, no plugins, no <base>, and
 * forms post only to the site itself, or end up at a registered app's redirect address (`formTargets`): a sign-in
 * form on the way to an app redirects through /oidc/* to the app, and browsers hold every redirect of a form's
 * submission to form-action. Violations are reported to /api/csp-report.
 */
import { createHash } from "node:crypto";

export const cspReportPath = "/api/csp-report";

/**
 * The request header by which the host hands React Router this answer's CSP nonce (read by app/entry.server.tsx).
 * The host always overwrites it (server/headers.ts), so a client can never choose its own.
 */
export const cspNonceHeader = "x-csp-nonce";

/** Written by scripts/csp-hashes.mjs next to the build: per prerendered path its inline scripts' hashes. */
export interface CspHashes {
  pages: Record<string, string[]>;
  /** Every inline <style> of every prerendered page: the same few blocks React may also add during navigation. */
  styles: string[];
}

// What gtag.js loads and where it sends hits, only when a GA4 measurement id is configured.
const analyticsHosts = ["https://*.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com"];

/** What the bot check's provider shows in a frame (its scripts come under 'strict-dynamic'); none for the proof of work. */
export function botCheckFrames(kind: "proof-of-work" | "turnstile" | "recaptcha" | "off"): readonly string[] {
  if (kind === "turnstile") return ["https://challenges.cloudflare.com"];
  if (kind === "recaptcha") return ["https://www.google.com", "https://recaptcha.google.com"];
  return [];
}

export function contentSecurityPolicy(options: {
  nonce?: string;
  scriptHashes?: readonly string[];
  styleHashes: readonly string[];
  analytics: boolean;
  formTargets?: readonly string[];
  /** Origins a page may frame besides itself (the bot check's provider: `botCheckFrames`). */
  frames?: readonly string[];
}): string {
  const trusted = options.nonce ? [`'nonce-${options.nonce}'`] : (options.scriptHashes ?? []).map((hash) => `'${hash}'`);
  const styles = [...(options.nonce ? [`'nonce-${options.nonce}'`] : []), ...options.styleHashes.map((hash) => `'${hash}'`)];
  const analytics = options.analytics ? analyticsHosts : [];
  return [
    "default-src 'self'",
    `script-src ${[...trusted, "'strict-dynamic'"].join(" ")}`,
    `style-src ${["'self'", ...styles].join(" ")}`,
    // Inline style attributes only (the scheduler sets sizes); <style> elements still need the nonce or a hash.
    "style-src-attr 'unsafe-inline'",
    `img-src ${["'self'", "data:", ...analytics].join(" ")}`,
    `connect-src ${["'self'", ...analytics].join(" ")}`,
    ...(options.frames?.length ? [`frame-src ${["'self'", ...options.frames].join(" ")}`] : []),
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action ${["'self'", ...(options.formTargets ?? [])].join(" ")}`,
    `report-uri ${cspReportPath}`,
    "report-to csp",
  ].join("; ");
}

/** For answers that are not pages (JSON, text, files): nothing may run in them or frame them. */
export const resourcePolicy = "default-src 'none'; frame-ancestors 'none'";

/** The CSP source that allows an inline script or style of exactly this text. */
export const cspHashOf = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

/** Where a page's inline scripts' texts stand: not JSON data blocks, not scripts with a src (nothing of theirs runs inline). */
export function inlineScriptTexts(html: string): { start: number; end: number }[] {
  const texts: { start: number; end: number }[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
    const [whole, attributes = "", text = ""] = match;
    if (/\ssrc=/.test(attributes) || /type="application\/(ld\+)?json"/.test(attributes)) continue;
    const end = match.index + whole.length - "</script>".length;
    texts.push({ start: end - text.length, end });
  }
  return texts;
}

/** The inline styles' texts of a page. */
export const inlineStyleTexts = (html: string) => [...html.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style>/g)].map(([, , text = ""]) => text);

/** The hashes of a page's inline scripts and of its inline styles, each once. */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts = inlineScriptTexts(html).map(({ start, end }) => cspHashOf(html.slice(start, end)));
  return { scripts: [...new Set(scripts)], styles: [...new Set(inlineStyleTexts(html).map(cspHashOf))] };
}
