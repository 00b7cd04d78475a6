import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { GoogleAnalytics } from "./google-analytics";

const inlineScript = (html: string) => /<script>(.*)<\/script>/s.exec(html)![1]!;

/** Runs the inline start-up script the way the browser does on a page opened at `address`. */
function runInitAt(address: string) {
  window.history.replaceState(null, "", address);
  window.dataLayer = [];
  new Function(inlineScript(renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />)))();
  return window.dataLayer.map((entry) => Array.from(entry as ArrayLike<unknown>));
}

// Rendered the way the server puts it into <head>.
describe("GoogleAnalytics", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("renders nothing without a measurement id", () => {
    expect(renderToStaticMarkup(<GoogleAnalytics measurementId={null} />)).toBe("");
  });

  it("loads gtag.js for the configured id and leaves page views to PageTracking", () => {
    const html = renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />);
    expect(html).toContain('<script async="" src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"></script>');
    expect(runInitAt("/faq?page=2").slice(1)).toEqual([["config", "G-TEST123", { send_page_view: false }]]);
  });

  it("tells gtag the address without a link's token and email", () => {
    const layer = runInitAt("/verify-email?token=secret-token&email=kid%40example.tw&utm_source=mail");
    expect(layer.slice(1)).toEqual([
      ["config", "G-TEST123", { send_page_view: false, page_location: `${location.origin}/verify-email?utm_source=mail` }],
    ]);
    expect(JSON.stringify(layer)).not.toMatch(/secret-token|kid/);
  });
});
