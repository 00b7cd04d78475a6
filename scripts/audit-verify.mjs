// `npm run audit:verify`: walks the security record's hash chain on the configured database (DATA_DIR or
// DATABASE_URL) and says whether any row was changed, removed or put in; exits 1 when one was.
import { loadServer } from "./server-bundle.mjs";

try {
  const server = await loadServer();
  const { ok, message } = await server.verifyAuditRecord();
  (ok ? console.log : console.error)(message);
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
