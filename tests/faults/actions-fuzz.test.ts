import http from "node:http";
import { describe, expect, it } from "vitest";
import { authEndpoints } from "~/features/auth/index.server";
import { routeMap } from "~/lib/route-map";
import { exampleAddress } from "~tests/helpers/route-addresses.mjs";
import { siteUrl, startSite } from "./site-process";

/**
 * Every route action and every endpoint of our own (the route map's, app/lib/route-map.ts, and the sign-in layer's
 * from its endpoint table), each with every method, wrong content types and broken bodies, signed out and as a
 * signed-in guest: not one answer ≥ 500, not one stack trace, nothing but JSON on the server's output. Unlike
 * fuzz.test.ts this is not a random sample: every combination is sent once.
 */
const actions = routeMap.filter((entry) => entry.kind === "screen" && entry.action).map((entry) => exampleAddress(entry.path));
const endpoints = [
  ...routeMap.filter((entry) => entry.kind !== "screen").map((entry) => exampleAddress(entry.path)),
  // The host's own routers, which the route map does not hold: OpenID Connect and the sign-in layer.
  "/dev-oidc/interaction/unknown",
  ...authEndpoints.map((row) => `/api/auth${row.path.replace(/:\w+/g, "x")}`),
];
const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const bodies: [string, string][] = [
  ["text/plain", "x"],
  ["application/json", "{"],
  ["application/json", '{"email":1,"intent":[],"vote":"yes"}'],
  ["multipart/form-data", "--x\r\n"],
  ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nguest'],
  ["application/x-www-form-urlencoded", "intent=%zz&email=%E4"],
  ["application/x-www-form-urlencoded", `intent=create&title=${"字".repeat(12_000)}`],
  ["application/xml", "<a/>"],
  ["", "\u0000\u0001"],
];
const stackTrace = /\n\s+at [^\n]+:\d+:\d+|node_modules|\bat (async )?[\w.<>]+ \(/;
// The guest's session must last the run: what signs out, deletes or replaces it is sent signed out only.
const endsTheGuest = /sign-out|delete|revoke|devices\/end|account-deletion|guest\/upgrade|sign-in|sign-up|callback|change-|reset-password/;

function send(port: string, method: string, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), cookies: response.headers["set-cookie"] ?? [] }));
    });
    request.on("error", (error) => reject(new Error(`${error.message}: ${method} ${path} (${headers["content-type"] ?? "no type"})`)));
    request.setTimeout(15_000, () => request.destroy(new Error(`no answer: ${method} ${path}`)));
    const sent = method === "GET" || method === "HEAD" ? undefined : body;
    // Node's client frames no DELETE or OPTIONS body by itself: without a length its bytes would read as a
    // second, broken request and the body would never reach the site.
    if (sent !== undefined) request.setHeader("content-length", Buffer.byteLength(sent));
    request.end(sent);
  });
}

describe("every action and endpoint of our own", () => {
  it("answers wrong types, broken bodies and every method without a 5xx or a stack", { timeout: 600_000 }, async () => {
    const site = await startSite({ TRUSTED_PROXIES: "127.0.0.1", LOG_LEVEL: "warn" });
    const { port } = new URL(site.baseURL);
    try {
      const guest = await send(port, "POST", "/api/auth/sign-in/anonymous", { origin: siteUrl, "content-type": "application/json", "x-forwarded-for": "203.0.113.1" }, "{}");
      expect(guest.status).toBe(200);
      const guestCookie = guest.cookies.map((cookie) => cookie.split(";")[0]).join("; ");
      const failures: string[] = [];
      let sent = 0;
      for (const path of [...actions, ...endpoints]) {
        for (const method of methods) {
          for (const [type, body] of method === "GET" || method === "HEAD" ? bodies.slice(0, 1) : bodies) {
            for (const cookie of endsTheGuest.test(path) ? [""] : ["", guestCookie]) {
              sent += 1;
              const headers: Record<string, string> = { origin: siteUrl, "x-forwarded-for": `198.18.${Math.floor(sent / 250) % 250}.${sent % 250}` };
              if (type) headers["content-type"] = type;
              if (cookie) headers.cookie = cookie;
              const answer = await send(port, method, path, headers, body);
              if (answer.status >= 500) failures.push(`${answer.status} ${method} ${path} ${type}: ${answer.text.slice(0, 160)}`);
              else if (stackTrace.test(answer.text)) failures.push(`stack in ${answer.status} ${method} ${path} ${type}`);
            }
          }
        }
      }
      expect(sent).toBeGreaterThan(2_000);
      expect(failures.slice(0, 30)).toEqual([]);
      const printed = site.output().split("\n").filter((line) => line.trim() && !line.trim().startsWith("{") && !/Unsupported runtime|Use Node\.js/.test(line));
      expect(printed).toEqual([]);
    } finally {
      expect((await site.stop()).code).toBe(0);
    }
  });
});
