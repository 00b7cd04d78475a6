import http from "node:http";
import { describe, expect, it } from "vitest";
import { startSite } from "./site-process";

/**
 * The deploy recipe's nginx ends TLS and speaks http to the site (docs/operations.md). A page's form posted by a
 * browser on the https site carries `Origin: https://…`; React Router refuses an action whose Origin does not
 * match the request's URL, so the site must see its own https address, or every form of the site answers 400.
 */
const siteUrl = "https://localhost:4210";

function postForm(baseURL: string, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // What nginx forwards: the site's Host, the browser's Origin, a form body, over plain http.
    const request = http.request(`${baseURL}${path}`, {
      method: "POST",
      headers: { host: "localhost:4210", origin: siteUrl, "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("behind a TLS-terminating proxy", () => {
  it("runs a page's form action posted from the https site", async () => {
    const site = await startSite({ SITE_URL: siteUrl });
    try {
      const answer = await postForm(site.baseURL, "/forgot-password", "email=parent%40example.tw");
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("如果此電子郵件已註冊，重設密碼信已寄出");
      // A foreign page's post is still refused.
      const foreign = await new Promise<number>((resolve, reject) => {
        const request = http.request(`${site.baseURL}/forgot-password`, {
          method: "POST",
          headers: { host: "localhost:4210", origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
        request.end("email=parent%40example.tw");
      });
      expect(foreign).toBeGreaterThanOrEqual(400);
      expect(foreign).toBeLessThan(500);
    } finally {
      await site.stop();
    }
  });
});
