import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GoogleAnalytics } from "./google-analytics";

const inlineScript = (html: string) => /<script>(.*)<\/script>/s.exec(html)![1]!;
const gtagSrc = "https://www.googletagmanager.com/gtag/js?id=G-TEST123";

/** Runs the inline start-up script the way the browser does on a page opened at `address`. */
function runInitAt(address: string) {
  window.history.replaceState(null, "", address);
  window.dataLayer = [];
  const init = inlineScript(renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />));
  new Function(init.slice(0, init.lastIndexOf("(function(){var s=")))();
  return window.dataLayer.map((entry) => Array.from(entry as ArrayLike<unknown>));
}

// Rendered the way the server puts it into <head>.
describe("GoogleAnalytics", () => {
  // Only the server build writes the script (the browser's copy adopts it as it is).
  beforeAll(() => vi.stubEnv("SSR", true));
  afterAll(() => vi.unstubAllEnvs());
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("renders nothing without a measurement id", () => {
    expect(renderToStaticMarkup(<GoogleAnalytics measurementId={null} />)).toBe("");
  });

  it("loads gtag.js for the configured id from its one inline script (trusted under 'strict-dynamic')", () => {
    const html = renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(inlineScript(html)).toContain(JSON.stringify(gtagSrc));
    expect(inlineScript(html)).toContain("document.head.appendChild(s)");
  });

  it("leaves page views to PageTracking", () => {
    const init = inlineScript(renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />));
    window.dataLayer = [];
    // Only the configuration part; inserting gtag.js is checked above.
    new Function(init.slice(0, init.lastIndexOf("(function(){var s=")))();
    expect(window.dataLayer.map((entry) => Array.from(entry as ArrayLike<unknown>)).slice(1)).toEqual([
      ["config", "G-TEST123", { send_page_view: false }],
    ]);
  });

  it("tells gtag the address without a link's token and email", () => {
    const layer = runInitAt("/verify-email?token=secret-token&email=kid%40example.tw&utm_source=mail");
    expect(layer.slice(1)).toEqual([
      ["config", "G-TEST123", { send_page_view: false, page_location: `${location.origin}/verify-email?utm_source=mail` }],
    ]);
    expect(JSON.stringify(layer)).not.toMatch(/secret-token|kid/);
  });
});
