// The fastest Node static server we know how to write, the reference for our own path to prerendered pages
// (bench/server-throughput.mjs starts it): bare `node:http`, one process, each page's gzip bytes from memory with
// the very headers our server sent for it, no routing, no middleware, no log. Run as its own process so it shares
// no event loop with the load generator.
//   STATIC_REFERENCE='{"port":3312,"pages":{"/":{"file":"build/client/index.html.gz","headers":{…}}}}' node bench/static-reference-server.mjs
import fs from "node:fs";
import http from "node:http";

const { port, pages } = JSON.parse(process.env.STATIC_REFERENCE ?? "{}");
const answers = new Map(Object.entries(pages).map(([pathname, { file, headers }]) => {
  const body = fs.readFileSync(file);
  return [pathname, { body, headers: { ...headers, "content-length": String(body.length) } }];
}));

http
  .createServer((request, response) => {
    const answer = answers.get(request.url);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, answer.headers).end(answer.body);
  })
  .listen(port, "127.0.0.1", () => process.send?.("listening"));
