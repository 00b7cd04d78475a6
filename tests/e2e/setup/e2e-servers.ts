/**
 * How many servers the e2e files run against (E2E_SERVERS, default 1), each worker its own (issue 42.5): the
 * first on E2E_PORT, the next 20 ports up (the ports between are the files' own extra servers, E2E_PORT + 1 … + 9).
 * Read by the Vitest config too: the e2e files run as many at a time as there are servers (docs/performance.md,
 * "The test command").
 */
export const e2eServerCount = Math.max(1, Number(process.env.E2E_SERVERS ?? 1));
