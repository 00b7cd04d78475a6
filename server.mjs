// Starts the site. Production (`npm start`): the built Hono app from build/server. Development
// (`npm run dev`): the same app loaded through Vite, with hot reload.
import http from "node:http";
import { getRequestListener, serve } from "@hono/node-server";

const production = process.env.NODE_ENV === "production";

async function loadProduction() {
  const entry = `./${process.env.BUILD_DIR || "build"}/server/index.js`;
  try {
    return await import(entry);
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("/server/index.js")) {
      console.error("找不到建置結果：請先執行 npm run build。");
      process.exit(1);
    }
    throw error;
  }
}

async function start() {
  if (production) {
    const server = await loadProduction();
    const { port, host, dialect } = await server.prepare();
    const listener = serve({ fetch: server.app.fetch, port, hostname: host }, () => {
      console.log(`網站已啟動：http://localhost:${port}（資料庫：${dialect}）`);
    });
    const stop = () => listener.close(() => server.shutdown().finally(() => process.exit(0)));
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    return;
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const load = () => vite.ssrLoadModule("./server/app.ts");
  const { port, host } = await (await load()).prepare();
  http
    .createServer((req, res) =>
      vite.middlewares(req, res, async () => getRequestListener((await load()).app.fetch)(req, res)),
    )
    .listen(port, host, () => console.log(`開發伺服器：http://localhost:${port}`));
}

start().catch((error) => {
  // Configuration errors carry their own message naming the variable; nothing else is printed.
  console.error(error?.name === "ConfigError" ? error.message : error);
  process.exit(1);
});
