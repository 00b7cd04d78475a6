import { consentNoticeVersion } from "./family-rules";

/**
 * The consent notice a parent reads before adding a child, read from its one home (docs/product/
 * family-consent-notice.md) at build time: the words between its markers, split into paragraphs and list items.
 * The document's version must be the one the code records with each consent, or the site refuses to start.
 */
const files = import.meta.glob<string>("/docs/product/family-consent-notice.md", { query: "?raw", import: "default", eager: true });
const source = Object.values(files)[0] ?? "";

export interface ConsentNotice {
  version: string;
  lines: string[];
}

export function readConsentNotice(markdown = source): ConsentNotice {
  const version = /^版本：(\S+)$/m.exec(markdown)?.[1];
  const body = /<!-- notice:start -->([\s\S]*?)<!-- notice:end -->/.exec(markdown)?.[1];
  if (version !== consentNoticeVersion || !body) {
    throw new Error(`docs/product/family-consent-notice.md: version ${version ?? "missing"} is not ${consentNoticeVersion}, or its notice markers are missing`);
  }
  return { version, lines: body.split("\n").map((line) => line.trim()).filter(Boolean) };
}

export const consentNotice = readConsentNotice();
