import type { BrowserContext, Response } from "playwright-core";
import { expect } from "vitest";

/** Every CSP violation any page of the context reports (pop-ups included), as "directive blocked-uri @ page". */
export async function watchViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("__reportViolation", (_source, line: string) => violations.push(line));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation(line: string): void }).__reportViolation(
        `${event.effectiveDirective} ${event.blockedURI} @ ${location.pathname}`,
      );
    });
  });
  return violations;
}

/** The page's policy: nonces or build-time hashes with 'strict-dynamic', no inline allowance, the fixed directives. */
export async function expectStrictPolicy(response: Response | null) {
  const policy = (await response?.allHeaders())?.["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src ('(nonce|sha256)-[^']+' )+'strict-dynamic'/);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'", "report-uri /api/csp-report"]) {
    expect(policy).toContain(directive);
  }
  expect(policy).not.toMatch(/(script-src|style-src) [^;]*unsafe-inline/);
}
