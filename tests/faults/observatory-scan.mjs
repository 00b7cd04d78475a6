// The MDN HTTP Observatory (its retriever, its ten tests and its grader) run against addresses of a site behind
// a local TLS proxy; prints one JSON result per address. A process of its own: the proxy's self-signed
// certificate is trusted through NODE_EXTRA_CA_CERTS, which Node reads only at start (an unverified certificate
// fails the redirection and HSTS tests), and the package's scan() takes no ports, so this does what it does
// with retrieve() given them.
//   NODE_EXTRA_CA_CERTS=cert.pem node tests/faults/observatory-scan.mjs <host> <http port> <https port> <path>...
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [host, httpPort, httpsPort, ...paths] = process.argv.slice(2);
const root = path.dirname(path.dirname(createRequire(import.meta.url).resolve("@mdn/mdn-http-observatory")));

// The HSTS preload list is fetched by the package's install script, which needs the network and is denied in
// package.json; localhost is on no preload list, so an empty one changes no result.
const preloadList = path.join(root, "conf", "hsts-preload.json");
if (!fs.existsSync(preloadList)) fs.writeFileSync(preloadList, "{}\n");

const { retrieve } = await import(path.join(root, "src/retriever/retriever.js"));
const { ALL_TESTS } = await import(path.join(root, "src/constants.js"));
const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = await import(path.join(root, "src/grader/charts.js"));
const { getGradeForScore, getScoreModifier } = await import(path.join(root, "src/grader/grader.js"));

const results = [];
for (const pathname of paths) {
  const requests = await retrieve(host, { httpPort, httpsPort, path: pathname });
  if (!requests.responses.auto) throw new Error(`${pathname}: no answer`);
  // The grading of the package's scan(): bonuses count only when the score without them is already an A.
  let withBonuses = 100;
  let withoutBonuses = 100;
  const tests = {};
  for (const test of ALL_TESTS) {
    const output = test(requests);
    const modifier = getScoreModifier(output.result);
    withBonuses += modifier;
    if (modifier < 0) withoutBonuses += modifier;
    tests[output.constructor.name] = { pass: output.pass, result: output.result, modifier };
  }
  const { score, grade } = getGradeForScore(withoutBonuses >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonuses : withoutBonuses);
  results.push({ path: pathname, status: requests.responses.auto.status, score, grade, tests });
}
console.log(JSON.stringify(results));
