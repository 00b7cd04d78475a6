// `npm run user:role -- <email> <user|editor|admin>`: sets an account's role on the configured database
// (DATA_DIR or DATABASE_URL). Uses the production build when there is one, else loads the source through Vite.
import { runCommand } from "./server-bundle.mjs";

const [email, role] = process.argv.slice(2);
if (!email || !role) {
  console.error("用法：npm run user:role -- <email> <user|editor|admin>");
  process.exit(2);
}

await runCommand((server) => server.changeUserRole(email, role));
