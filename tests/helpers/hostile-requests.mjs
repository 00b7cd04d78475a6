// The fuzzer's malformed requests, in one seeded sequence: bad methods, paths, bodies, hosts, cookies and types over
// every route of the route map and every address of the host, from thousands of client addresses (through a trusted
// proxy's X-Forwarded-For). Plain JavaScript so the fault test (tests/faults/fuzz.test.ts) and the memory benchmark
// (bench/memory.mjs) send the same ones.
import http from "node:http";

/**
 * The host's own addresses, which neither the route map nor the sign-in layer's table holds (the caller brings
 * those): the process probes, files, the development identity provider, and a path under the sign-in layer's
 * router that no endpoint has.
 */
const hostAddresses = ["/healthz", "/readyz", "/favicon.ico", "/assets/missing.js",
  "/dev-oidc/.well-known/openid-configuration", "/dev-oidc/auth", "/dev-oidc/token", "/api/auth/no-such-endpoint"];

const methods = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FOO"];
const bodies = [
  "",
  "{",
  "null",
  "[]",
  '{"email":1,"password":{}}',
  '{"email":"a@b","password":"x"}',
  '{"email":"' + "a".repeat(5000) + '@example.tw","password":"' + "p".repeat(5000) + '"}',
  '{"events":[{"name":"page_view","params":{"page_path":"x"}}]}',
  '{"events":' + JSON.stringify(Array.from({ length: 500 }, () => ({ name: "logo_click", params: {} }))) + "}",
  "email=a%40b&password=%zz",
  "\u0000\u0001\u0002",
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  "x".repeat(70 * 1024),
];
const types = ["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "", "application/json; charset=utf-7"];
const suffixes = ["", "", "?token=%", "?callbackURL=//evil.example", "/%zz", "/..%2f..%2fetc%2fpasswd", "//", "?" + "q=".repeat(2000), "%00", "/\u00e9\u4e2d"];
const cookies = ["", "", "better-auth.session_token=garbage", "better-auth.session_token=" + "A".repeat(4000), "a=b; c", "=;;="];
const ADDRESSES = 3_000;

/** A seeded generator of numbers in [0, 1): the same seed, the same requests, so a failure can be replayed. */
function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Sends `total` malformed requests to the site on 127.0.0.1:`port`, `concurrency` at a time, and calls `onAnswer`
 * with each answer (or `onSilence` when none came within 15 s). `siteOrigin` is the site's configured origin:
 * most requests claim it, the rest a foreign one; a host is sometimes the site's port on another name.
 * @param {import("./hostile-requests.d.mts").HostileRun} run
 */
export async function sendHostileRequests({ routeAddresses, authAddresses, port, siteOrigin, total, seed, concurrency = 24, onAnswer = () => {}, onSilence = () => {}, onProgress = () => {} }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const next = seededRandom(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const hosts = ["", "", "", "", "www.127.0.0.1", "a b", "[::1", "x".repeat(300), "localhost:99999", "evil.example", new URL(siteOrigin).host];
  const endpoints = [...routeAddresses, ...authAddresses, ...hostAddresses];
  let sent = 0;

  const one = () =>
    new Promise((resolve) => {
      const method = pick(methods);
      const path = pick(endpoints) + pick(suffixes);
      const body = method === "GET" || method === "HEAD" ? "" : pick(bodies);
      const headers = {
        "x-forwarded-for": `198.${Math.floor(next() * 12)}.${Math.floor(next() * 250)}.${Math.floor(next() * ADDRESSES) % 250}`,
        origin: next() < 0.7 ? siteOrigin : pick(["null", "https://evil.example", "x"]),
      };
      const host = pick(hosts);
      if (host) headers.host = host;
      const type = pick(types);
      if (type) headers["content-type"] = type;
      const cookie = pick(cookies);
      if (cookie) headers.cookie = cookie;
      if (next() < 0.1) headers.accept = "text/html";
      const request = { method, path, host };
      const outgoing = http.request({ host: "127.0.0.1", port, method, path: encodeURI(path).replace(/%25/g, "%"), headers, agent }, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          onAnswer({ ...request, status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
          resolve();
        });
        response.on("error", () => resolve());
      });
      // Node's own parser refuses some of these (a bad Host, a 400 from the socket): that is an answer too.
      outgoing.on("error", () => resolve());
      // No answer at all is a failure of its own: a hang.
      outgoing.setTimeout(15_000, () => {
        onSilence(request);
        outgoing.destroy();
      });
      outgoing.end(body);
    });

  const worker = async () => {
    while (sent < total) {
      sent += 1;
      await one();
      onProgress(sent);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
}
