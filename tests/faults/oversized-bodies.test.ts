import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * A body over the cap gets its 413 read by the client (issue 38): the site answers at once with `Connection: close`,
 * then keeps reading and dropping what the client still sends before it closes (a lingering close, server.mjs).
 * The client here is the hard kind: a raw socket that sends its whole declared body, paced over 1.5 s (longer than
 * any drain of the HTTP adapter), and reads nothing until it is done. A server that closed the socket while bytes
 * were still coming would answer them with a reset, and the client would see EPIPE or ECONNRESET instead of 413.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  /** Everything read from the socket. */
  text: string;
  /** The first socket error, if any (EPIPE, ECONNRESET). */
  error?: string;
}

async function sendWhileRefused(port: number, path: string, contentType: string): Promise<Outcome> {
  const chunk = Buffer.alloc(64 * 1024, "x".charCodeAt(0));
  const chunks = 128; // 8 MB, far over every cap of these routes
  const socket = net.connect(port, "127.0.0.1");
  // Reads nothing while it writes, as a client that sends first and reads afterwards.
  socket.pause();
  let error: string | undefined;
  socket.on("error", (failure: NodeJS.ErrnoException) => {
    error ??= failure.code ?? failure.message;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    [`POST ${path} HTTP/1.1`, "Host: localhost:4210", `Origin: ${siteUrl}`, `Content-Type: ${contentType}`, `Content-Length: ${chunk.length * chunks}`, "", ""].join("\r\n"),
  );
  for (let sent = 0; sent < chunks && !error && !socket.destroyed; sent += 1) {
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once("drain", resolve).once("close", resolve));
    await sleep(12);
  }
  // Now it reads: the answer, then the server's end of the stream.
  const received: Buffer[] = [];
  socket.on("data", (data: Buffer) => received.push(data));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 15_000);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    socket.resume();
    socket.end();
  });
  socket.destroy();
  return { text: Buffer.concat(received).toString("utf8"), error };
}

describe("an oversized body's 413 reaches the client", () => {
  let site: SiteProcess;
  beforeAll(async () => {
    site = await startSite({ RATE_LIMIT_AUTH_PER_IP: "1000000/60", RATE_LIMIT_SIGN_IN_PER_IP: "1000000/60" });
  });
  afterAll(async () => {
    await site?.stop();
  });

  for (const [path, contentType] of [
    ["/api/analytics", "application/json"],
    ["/api/auth/sign-in/email", "application/json"],
  ] as const) {
    it(`POST ${path}: 24 clients that keep writing each read 413 with Connection: close`, async () => {
      const port = Number(new URL(site.baseURL).port);
      const outcomes: Outcome[] = [];
      // Four rounds of six at once: many repetitions without crowding a shared machine.
      for (let round = 0; round < 4; round += 1) outcomes.push(...(await Promise.all(Array.from({ length: 6 }, () => sendWhileRefused(port, path, contentType)))));
      const heads = outcomes.map(({ text, error }) => ({ status: /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? `nothing read (${error ?? "no error"})`, close: /\r\nconnection: close\r\n/i.test(text) }));
      expect(heads).toEqual(Array(24).fill({ status: "413", close: true }));
      // The site's own answer, in its words, not a bare status.
      for (const { text } of outcomes) expect(text).toMatch(/過大/);
    }, 120_000);
  }
});
