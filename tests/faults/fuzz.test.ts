import { describe, expect, it } from "vitest";
import { routeMap } from "~/lib/route-map";
import { sendHostileRequests } from "~tests/helpers/hostile-requests.mjs";
import { authPaths } from "~/features/auth/index.server";
import { authAddresses, exampleAddress } from "~tests/helpers/route-addresses.mjs";
import { siteUrl, startSite } from "./site-process";

/**
 * 10,000 malformed requests over every route of the route map and the host's own addresses, from thousands of
 * client addresses: bad methods, paths, bodies, hosts, cookies and types (tests/helpers/hostile-requests.mjs). Not
 * one may answer 5xx or show a stack trace, and memory must stay flat. The sequence is seeded, so a failure can be
 * replayed.
 */
const TOTAL = 10_000;

// Every endpoint of the sign-in layer's table, read from the files that spell their paths (as bench/memory.mjs
// reads them); the count holds the reading to the table's paths, so a path the pattern missed fails here.
const signInLayerAddresses = authAddresses();

const stackTrace = /\n\s+at [^\n]+:\d+:\d+|node_modules|\bat (async )?[\w.<>]+ \(/;

describe("malformed requests", () => {
  it("sends to every endpoint of the sign-in layer", () => {
    expect(signInLayerAddresses).toHaveLength(Object.keys(authPaths).length - 1);
  });

  it(`answers ${TOTAL} of them without a 5xx or a stack trace, in flat memory`, { timeout: 420_000 }, async () => {
    const site = await startSite({ TRUSTED_PROXIES: "127.0.0.1", LOG_LEVEL: "warn" });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // Resident memory every 500 requests; the garbage collector makes it swing, so trends are compared by median.
    const rssSamples: number[] = [];
    try {
      await sendHostileRequests({
        routeAddresses: routeMap.map((entry) => exampleAddress(entry.path)),
        authAddresses: signInLayerAddresses,
        port: new URL(site.baseURL).port,
        siteOrigin: siteUrl,
        total: TOTAL,
        seed: 20261126,
        onAnswer: ({ method, path, host, status, text }) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) failures.push(`${status} ${method} ${path.slice(0, 120)} host=${host.slice(0, 40)}: ${text.slice(0, 200)}`);
          else if (stackTrace.test(text)) failures.push(`stack trace in ${status} ${method} ${path.slice(0, 120)}`);
        },
        onSilence: ({ method, path }) => failures.push(`no answer within 15 s: ${method} ${path.slice(0, 120)}`),
        onProgress: (sent) => {
          if (sent % 500 === 0) rssSamples.push(site.rssMb());
        },
      });
      expect(failures.slice(0, 20)).toEqual([]);
      expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(TOTAL * 0.95);
      // Thousands of new addresses, oversized bodies and bad input: memory does not climb with them. The median
      // of the second half stays within 64 MB of the first half's.
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const half = Math.floor(rssSamples.length / 2);
      expect(median(rssSamples.slice(half)) - median(rssSamples.slice(0, half))).toBeLessThan(64);
      expect(site.child.exitCode).toBeNull();
    } finally {
      expect((await site.stop()).code).toBe(0);
    }
  });
});
