import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GoogleAnalytics } from "./google-analytics";

// Rendered the way the server puts it into <head>.
describe("GoogleAnalytics", () => {
  it("renders nothing without a measurement id", () => {
    expect(renderToStaticMarkup(<GoogleAnalytics measurementId={null} />)).toBe("");
  });

  it("loads gtag.js for the configured id and leaves page views to PageTracking", () => {
    const html = renderToStaticMarkup(<GoogleAnalytics measurementId="G-TEST123" />);
    expect(html).toContain('<script async="" src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"></script>');
    expect(html).toContain('gtag("config","G-TEST123",{send_page_view:false})');
  });
});
