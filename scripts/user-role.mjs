// `npm run user:role -- <email> <user|editor>`: sets an account's role on the configured database
// (DATA_DIR or DATABASE_URL). Uses the production build when there is one, else loads the source through Vite.
import fs from "node:fs";

const [email, role] = process.argv.slice(2);
if (!email || !role) {
  console.error("用法：npm run user:role -- <email> <user|editor>");
  process.exit(2);
}

async function loadServer() {
  const built = `./${process.env.BUILD_DIR || "build"}/server/index.js`;
  if (fs.existsSync(new URL(`../${built}`, import.meta.url))) return import(`../${built}`);
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom", logLevel: "error" });
  return vite.ssrLoadModule("./server/app.ts");
}

try {
  const server = await loadServer();
  console.log(await server.changeUserRole(email, role));
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
