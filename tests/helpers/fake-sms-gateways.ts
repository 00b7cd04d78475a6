import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// Local stand-ins for the SMS gateways (三竹, 每日簡訊, Twilio Verify), for the gateway tests and the outbox's fault test.

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  headers: IncomingMessage["headers"];
}

/**
 * One local stand-in for the three gateways, speaking each one's wire format (the formats are noted in
 * docs/auth.md). `answerNext` says what the next request is answered with; `delayMs` holds every answer that long
 * (a slow gateway, so texts queue up in the outbox).
 */
export function fakeGateways(options: { delayMs?: number } = {}) {
  const received: Received[] = [];
  let reply: { status: number; body: string } | undefined;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://fake");
      received.push({ method: request.method ?? "", path: url.pathname, query: url.searchParams, body, headers: request.headers });
      const answer = reply ?? defaultReply(url.pathname, body);
      reply = undefined;
      const send = () => response.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" }).end(answer.body);
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  const defaultReply = (path: string, body: string) => {
    if (path === "/api/mtk/SmSendPost.asp") return { status: 200, body: "[0]\r\nmsgid=1234567890\r\nstatuscode=1\r\nAccountPoint=98\r\n" };
    if (path === "/API21/HTTP/sendSMS.ashx") return { status: 200, body: "97.0,1,1.0,0,b2c1a9f4-0000" };
    if (path.endsWith("/Verifications")) return { status: 201, body: JSON.stringify({ status: "pending" }) };
    if (path.endsWith("/VerificationCheck")) return { status: 200, body: JSON.stringify({ status: new URLSearchParams(body).get("Code") === "123456" ? "approved" : "pending" }) };
    return { status: 404, body: "" };
  };
  return {
    received,
    answerNext: (status: number, body: string) => void (reply = { status, body }),
    start: () => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

