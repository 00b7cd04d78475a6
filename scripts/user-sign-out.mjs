// `npm run user:sign-out -- <email>` ends every session of that account; `-- --all` ends every session of every
// account (ASVS 7.4.5). Runs on the configured database (DATA_DIR or DATABASE_URL), through the production
// build when there is one, else the source loaded through Vite.
import { runCommand } from "./server-bundle.mjs";

const [target, extra] = process.argv.slice(2);
if (!target || extra !== undefined || (target.startsWith("-") && target !== "--all")) {
  console.error("用法：npm run user:sign-out -- <email>，或 npm run user:sign-out -- --all");
  process.exit(2);
}

await runCommand((server) => server.signOutUsers(target));
