import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { appOriginAccess } from "./app-origin";

const site = "https://example.tw";
const download = "/v0/b/default/o/users%2Fu1%2Fphoto.png?alt=media";

function appWith(appUrl: string | undefined) {
  return new Hono().use("/v0/b/*", appOriginAccess({ siteUrl: site, appUrl })).get("/v0/b/*", (c) => c.body("bytes"));
}

describe("what the app's origin may read", () => {
  it("gives downloads CORS for the app's origin alone and a resource policy the app's pages may embed", async () => {
    const app = appWith("https://app.example.tw");
    const fromApp = await app.request(download, { headers: { origin: "https://app.example.tw" } });
    expect(fromApp.headers.get("access-control-allow-origin")).toBe("https://app.example.tw");
    expect(fromApp.headers.get("cross-origin-resource-policy")).toBe("same-site");
    const fromElsewhere = await app.request(download, { headers: { origin: "https://evil.example" } });
    expect(fromElsewhere.headers.get("access-control-allow-origin")).toBeNull();

    const preflight = await app.request(download, { method: "OPTIONS", headers: { origin: "https://app.example.tw", "access-control-request-headers": "authorization" } });
    expect([preflight.status, preflight.headers.get("access-control-allow-headers")]).toEqual([204, "authorization, range"]);
    expect((await app.request(download, { method: "OPTIONS", headers: { origin: "https://evil.example" } })).status).toBe(403);
  });

  it("leaves everything else alone: metadata, uploads, and every answer when no app is configured", async () => {
    const app = appWith("https://app.other.tw");
    const metadata = await app.request("/v0/b/default/o/users%2Fu1%2Fphoto.png", { headers: { origin: "https://app.other.tw" } });
    expect(metadata.headers.get("access-control-allow-origin")).toBeNull();
    // An app on another site: its pages may still embed the download.
    expect((await app.request(download)).headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const none = await appWith(undefined).request(download, { headers: { origin: "https://app.example.tw" } });
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    expect(none.headers.get("cross-origin-resource-policy")).toBeNull();
  });
});
