import fs from "node:fs";
import path from "node:path";

// Concrete addresses for route paths, for the tests and the benchmark that send something to every route. Plain
// JavaScript so the benchmark, which runs without TypeScript, makes the same addresses as the tests.

/** A well-formed id that names nothing: a pattern's parameters take it, so requests reach the route's own code. */
export const unknownId = "00000000-0000-4000-8000-000000000000";

/** `/` + a React Router path with its parameters filled in: `wishing-well/:id` → `/wishing-well/<unknownId>`. */
export function exampleAddress(path) {
  return `/${path.replace(/:\w+/g, unknownId).replace(/\*/g, "x")}`;
}

/**
 * `/api/auth` + each endpoint path of the sign-in layer, read from the files that spell them: auth-paths.ts (the
 * shared endpoints) and each way in's unit (`app/features/auth/ways-in/<name>/<name>.ts`, its own endpoints).
 */
export function authAddresses() {
  const folder = "app/features/auth";
  const units = fs.readdirSync(path.join(folder, "ways-in"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const files = ["auth-paths.ts", ...units.map(({ name }) => `ways-in/${name}/${name}.ts`)];
  const source = files.map((file) => fs.readFileSync(path.join(folder, file), "utf8")).join("\n");
  const paths = [...source.matchAll(/^export const (\w+) = "([^"]+)";$/gm)].filter(([, name]) => name !== "authBasePath").map(([, , path]) => path);
  return paths.map((path) => `/api/auth${exampleAddress(path.slice(1))}`);
}
