import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// ── The architecture as lint (docs/architecture.md, decision 900) ────────────────────────────────────────────
// Layers, top to bottom. Each may import itself and the layers it names; nothing may import a layer above it.
const layers = {
  host: { paths: ["server"], may: ["features", "config", "db", "services", "lib"] },
  // React Router's own modules: the route map, the root and the server entry with its hydration deferral.
  routes: {
    paths: ["app/routes", "app/root.tsx", "app/routes.ts", "app/defer-hydration.server.ts"],
    may: ["features", "components", "config", "lib"],
  },
  // React Router's server entry: like the routes, plus the one logger, which receives React Router's errors.
  entry: { paths: ["app/entry.server.tsx", "app/entry.client.tsx"], may: ["routes", "features", "components", "config", "lib", "services"] },
  features: { paths: ["app/features"], may: ["components", "services", "config", "db", "lib", "styles", "content"] },
  components: { paths: ["app/components"], may: ["config", "lib", "styles"] },
  services: { paths: ["app/services"], may: ["config", "lib"] },
  db: { paths: ["app/db"], may: ["config", "lib"] },
  config: { paths: ["app/config", "app/prerendered-paths.ts"], may: ["lib"] },
  lib: { paths: ["app/lib"], may: [] },
  styles: { paths: ["app/styles"], may: [] },
  content: { paths: ["content"], may: [] },
};

// Each feature's public files: the only ones anything outside the feature (routes, the host, other features)
// may import. `host` names the `*.server.ts` entry points the Hono host may import (they are public too).
// No barrel files, save faces: a public file is the module that does the work, unless a feature's list has grown past
// what a reader takes in (the sign-in layer's, 26 files: issue 42). Such a feature's public files are its faces,
// `index.ts` / `index.server.ts` files that only re-export by name (`export { x } from "./file"`: go-to-definition
// lands on the code in one hop), at most `faceLimits` of them (checked below). A `*.server.ts` module is re-exported
// only from a `*.server.ts` face, so no server code reaches a browser bundle. The build declares the faces free of
// side effects (vite.config.ts), so a page takes the modules whose names it uses, not every module its face names
// (without that, the first-load JS of / went from 114.7 to 119.2 KB: bench/first-load-js.mjs). Inside the feature no
// file imports its own face: it names the file that does the work (a face imported from inside makes cycles).
const features = {
  analytics: {
    public: ["track.ts", "analytics-events.ts", "google-analytics.tsx", "page-tracking.tsx", "analytics-endpoint.server.ts"],
  },
  articles: {
    public: [
      "article-list.tsx", "article-detail.tsx", "article-loaders.server.ts", "article-meta.ts", "documents.server.ts", "learning-pages.tsx", "legal-page.tsx",
      // Parts other Markdown screens reuse.
      "markdown.server.ts", "pagination.ts", "prose.tsx", "reading-time.ts", "format.ts", "content-not-found.tsx",
    ],
  },
  // The sign-in layer's faces (decision 141, addendum): index.ts for code that can reach the browser (the client and
  // its hooks, the error messages, the password policy, names and phone numbers, the bot check's field, the provider
  // buttons); index.server.ts for server code (the service and the host's entry to it, the in-process calls, the
  // viewer, the user-data registry, a way in's screen action, the endpoint table); ways-in/index.ts for the ways in's
  // units and their forms' schemas (npm run new:way-in writes a new one's line there: lint lists no way in).
  auth: {
    public: ["index.ts", "index.server.ts", "ways-in/index.ts"],
    host: ["index.server.ts"],
  },
  // The site as the app's OpenID provider: the host mounts its routes and hands file storage its token check.
  "app-sign-in": { public: ["app-sign-in.server.ts"], host: ["app-sign-in.server.ts"] },
  // The sign-in screens, each behind a thin route, with their actions; the links into them and the password rules
  // list (the account screens use both).
  "sign-in": {
    public: [
      // Every screen (a route module's page): a new way in's screen edits no list.
      "screens",
      "sign-in-actions.server.ts",
      // The login route's action in the browser (the session refreshed, a passkey offered after a password).
      "login-client-action.ts",
      // The browser half of passkeys: the login screen's button and autofill, the account screens' "add" and "confirm".
      "passkey-client.ts", "passkey-support-mark.tsx", "second-step-schemas.ts",
      "auth-paths.ts", "password-rules-list.tsx", "sign-in-schemas.ts", "sign-in-screen.tsx", "auth-screens.css",
    ],
  },
  account: {
    public: [
      "account-deletion-page.tsx", "current-plan-page.tsx", "account-security-page.tsx", "account-actions.server.ts", "account-schemas.ts",
      "account-center-page.tsx", "account-data-page.tsx", "confirm-identity-page.tsx", "account-center.server.ts",
      "two-step-page.tsx", "passkeys-page.tsx", "second-factor-settings.server.ts", "recent-sign-in-alert.tsx",
      "app-deletion.server.ts",
    ],
    host: ["app-deletion.server.ts"],
  },
  // The Content-Security-Policy: built by the host, its nonce read by the server entry and the root's inline
  // styles; where browsers report violations.
  security: { public: ["csp.server.ts", "csp-nonce.tsx", "csp-report.server.ts"], host: ["csp.server.ts"] },
  // The dev blog's screens and loaders (routes), its feed and sitemap entries, the stale-save message (e2e).
  "dev-blog": {
    public: [
      "loaders.server.ts", "editor.server.ts", "blog-service.server.ts", "feed.server.ts", "meta.ts", "editor-meta.ts",
      "post-list.tsx", "post-view.tsx", "post-editor.tsx", "forbidden-view.tsx", "links.ts", "editor-messages.ts",
    ],
    host: ["post-user-data.server.ts"],
  },
  // Families (issue 31): the screen and its actions, the change events (the audit record listens), the user-data handler.
  family: {
    public: ["family-page.tsx", "join-page.tsx", "family-actions.server.ts", "family-events.server.ts", "family-user-data.server.ts", "family-claims.server.ts", "family-devices.server.ts", "family-api.server.ts"],
    host: ["family-user-data.server.ts", "family-events.server.ts", "family-api.server.ts"],
  },
  "dev-tools": { public: ["mailbox-screen.tsx", "self-test-screen.tsx", "dev-mailbox.server.ts", "self-test.server.ts"] },
  mail: { public: ["mailbox.server.ts", "mail-transport.server.ts", "mail-templates.server.ts", "outbox.server.ts", "sms-gateways.server.ts"] },
  pages: {
    public: [
      "data.server.ts", "page-intro.tsx", "placeholders.ts", "variables.server.ts", "plan-card.tsx", "home-page.tsx",
      "features-page.tsx", "pricing-page.tsx", "faq-page.tsx", "faq-structured-data.ts", "about-page.tsx", "tutorial-page.tsx", "ironman-page.tsx",
    ],
  },
  scheduler: { public: ["task-scheduler.tsx"] },
  seo: { public: ["page-meta.ts", "sitemap.server.ts", "web-manifest.ts"] },
  shell: { public: ["site-header.tsx", "site-footer.tsx", "inline-stylesheet.tsx", "signed-in-pages.server.ts"], host: ["signed-in-pages.server.ts"] },
  // The browser upload client and its error catalogue (the dev blog uses them), the profile-photo picker (the
  // shell's dropdown), and the storage service the host mounts.
  storage: {
    public: ["upload-client.ts", "storage-errors.ts", "storage-paths.ts", "file-metadata.ts", "profile-photo-picker.tsx", "storage.server.ts", "profile-photo.server.ts"],
    host: ["storage.server.ts"],
  },
  // The wishing well's screens and route handlers; the host registers wish-user-data.server.ts with the sign-in
  // layer's user-data hooks, and gives the signed-in pages the board's variants (wish-board-variants.server.ts).
  admin: { public: ["operator-console.server.ts", "console-page.tsx", "parent-page.tsx", "console-gate-page.tsx"] },
  "security-record": {
    public: ["security-record.server.ts", "record-retention.server.ts", "event-labels.ts"],
    host: ["security-record.server.ts", "record-retention.server.ts"],
  },
  // Leaving Firebase (issue 40): the accounts import the operator's command runs, the imported hashes' check.
  "firebase-import": { public: ["import-users.server.ts", "password-verify.server.ts", "firebase-id-token.server.ts"], host: ["import-users.server.ts"] },
  wishes: {
    public: ["wish-routes.server.ts", "wish-board.tsx", "wish-detail.tsx", "wish-meta.ts", "unsubscribe-page.tsx", "wish-rules.ts"],
    host: ["wish-user-data.server.ts", "wish-board-variants.server.ts"],
  },
};

const root = import.meta.dirname;
const at = (relative) => path.join(root, relative);

// How many public files a feature that has faces may have (issue 42: the sign-in layer's face back to ten at most);
// tests/integration/architecture-lint.test.ts holds the lint to it.
const faceLimits = { auth: 10 };
for (const [name, limit] of Object.entries(faceLimits)) {
  const count = new Set([...features[name].public, ...(features[name].host ?? [])]).size;
  if (count > limit) throw new Error(`eslint.config.js: features/${name} has ${count} public files; its face holds at most ${limit} (issue 42).`);
}
/** A feature's faces: its public files named index.ts, index.tsx or index.server.ts (in the feature or a sub-area). */
const facesOf = (feature) => feature.public.filter((file) => /(^|\/)index(\.server)?\.tsx?$/.test(file));
// A face holds nothing but re-exports by name (`export { x } from "./file"`, `export type { … } from …`): no code of
// its own, which the build counts on (vite.config.ts declares faces free of side effects), and no `export *`. A face
// that can reach the browser re-exports no `*.server.ts` module.
for (const [name, feature] of Object.entries(features)) {
  for (const face of facesOf(feature)) {
    const text = fs.readFileSync(at(`app/features/${name}/${face}`), "utf8");
    const rest = text.replace(/^\s*\/\/.*$/gm, "").replace(/^export (type )?\{[^}]*\} from "[^"]+";$/gm, "").trim();
    if (rest) throw new Error(`eslint.config.js: app/features/${name}/${face} is a face: only \`export { … } from "…";\` lines, not ${JSON.stringify(rest.slice(0, 60))}.`);
    if (!face.endsWith(".server.ts") && /from "[^"]*\.server"/.test(text)) {
      throw new Error(`eslint.config.js: app/features/${name}/${face} reaches the browser and re-exports a *.server.ts module; that goes on index.server.ts.`);
    }
  }
}

// The build declares every app/features/**/index.ts(x) free of side effects (vite.config.ts): each must be a face above.
for (const file of fs.readdirSync(at("app/features"), { recursive: true, encoding: "utf8" })) {
  const [name, ...rest] = file.split(path.sep);
  if (!/^index\.tsx?$/.test(rest.at(-1) ?? "")) continue;
  if (!facesOf(features[name] ?? { public: [] }).includes(rest.join("/"))) {
    throw new Error(`eslint.config.js: app/features/${file} is named like a face but is not one; name it after what it does, or list it as a face.`);
  }
}

for (const folder of fs.readdirSync(at("app/features"), { withFileTypes: true })) {
  const name = folder.name;
  if (!folder.isDirectory() || fs.readdirSync(at(`app/features/${name}`)).length === 0) continue;
  if (!features[name]) throw new Error(`eslint.config.js: app/features/${name} has no list of public files; add it to \`features\`.`);
}
// Every file under app/ belongs to exactly one layer: a file at a place no layer names is refused here.
const layerPaths = Object.values(layers).flatMap((layer) => layer.paths).filter((place) => place.startsWith("app/"));
for (const file of fs.readdirSync(at("app"), { recursive: true, encoding: "utf8" })) {
  const place = `app/${file.split(path.sep).join("/")}`;
  if (fs.statSync(at(place)).isDirectory() || place.startsWith("app/.")) continue;
  // A test beside its file belongs where the file does.
  const tested = place.replace(/\.test(\.tsx?)$/, "$1");
  if (!layerPaths.some((layer) => tested === layer || tested.startsWith(`${layer}/`))) {
    throw new Error(`eslint.config.js: ${place} belongs to no layer; move it into one, or name its place in \`layers\`.`);
  }
}

// Features depend on each other one way: a loop between feature folders (a → b through one file, b → a through
// another) is one no file-level cycle rule sees, so it is found here, on every run of the lint.
function featureLoops() {
  const uses = new Map();
  for (const feature of fs.readdirSync(at("app/features"))) {
    const folder = at(`app/features/${feature}`);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const file of fs.readdirSync(folder, { recursive: true, encoding: "utf8" })) {
      if (!/\.(ts|tsx)$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      for (const [, other] of fs.readFileSync(path.join(folder, file), "utf8").matchAll(/from "~\/features\/([\w-]+)[/"]/g)) {
        if (other !== feature) uses.set(feature, (uses.get(feature) ?? new Set()).add(other));
      }
    }
  }
  const loops = new Set();
  const visit = (feature, trail) => {
    for (const next of uses.get(feature) ?? []) {
      if (trail.includes(next)) loops.add([...trail.slice(trail.indexOf(next)), next].join(" → "));
      else visit(next, [...trail, next]);
    }
  };
  for (const feature of uses.keys()) visit(feature, [feature]);
  return [...loops];
}
const loops = featureLoops();
if (loops.length) throw new Error(`eslint.config.js: features depend on each other in a loop: ${loops.join("; ")} (docs/architecture.md).`);

for (const [name, { host = [] }] of Object.entries(features)) {
  const wrong = host.filter((file) => !file.endsWith(".server.ts"));
  if (wrong.length) throw new Error(`eslint.config.js: the host's entry points into ${name} must be *.server.ts files: ${wrong.join(", ")}`);
}

/** Every zone of `import-x/no-restricted-paths`. */
function zones() {
  const result = [];
  for (const [name, layer] of Object.entries(layers)) {
    for (const [otherName, other] of Object.entries(layers)) {
      if (otherName === name || layer.may.includes(otherName)) continue;
      for (const from of other.paths) {
        result.push({
          target: layer.paths.map(at),
          from: at(from),
          message: `Layers: ${name} may import ${layer.may.length ? `only ${layer.may.join(", ")}` : "nothing else of the app"} (docs/architecture.md).`,
        });
      }
    }
  }
  for (const [name, feature] of Object.entries(features)) {
    const from = at(`app/features/${name}`);
    result.push({
      target: [at(`app/features/!(${name})/**`), ...layers.routes.paths.map(at), ...layers.entry.paths.map(at), at("server")],
      from,
      except: [...new Set([...feature.public, ...(feature.host ?? [])])].map((file) => `./${file}`),
      message: `Outside features/${name}, import only its public files: ${feature.public.join(", ")} (eslint.config.js).`,
    });
  }
  // Inside a feature, a module imports the file that does the work, never the feature's own face.
  for (const [name, feature] of Object.entries(features)) {
    const faces = facesOf(feature);
    if (!faces.length) continue;
    result.push({
      target: at(`app/features/${name}`),
      from: faces.map((file) => at(`app/features/${name}/${file}`)),
      message: `Inside features/${name}, import the file itself, not the feature's face (${faces.join(", ")}): the face is for the code outside (eslint.config.js).`,
    });
  }
  const hostEntries = Object.entries(features).flatMap(([name, feature]) => (feature.host ?? []).map((file) => `./${name}/${file}`));
  result.push({
    target: at("server"),
    from: at("app/features"),
    except: hostEntries,
    message: `The host imports a feature only through its named *.server.ts entry points: ${hostEntries.join(", ")} (decision 900).`,
  });
  return result;
}

// The TypeScript resolver knows the path aliases; Vite's `?inline` / `?raw` queries are dropped first, so a
// stylesheet imported as text is checked like any other import.
const typescriptResolver = createTypeScriptImportResolver({ project: at("tsconfig.json") });
const resolver = { ...typescriptResolver, resolve: (source, file) => typescriptResolver.resolve(source.replace(/\?[\w&=]*$/, ""), file) };

const boundaries = {
  // .mjs too: the start script, the build steps and the benchmarks import the app's modules like any other file.
  files: ["**/*.{ts,tsx,mjs}"],
  plugins: { "import-x": importX },
  settings: {
    "import-x/resolver-next": [resolver],
    // Without these, import-x reads no .ts/.tsx file it is led to, and no-cycle finds nothing.
    "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
    "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
  },
  rules: {
    "import-x/no-restricted-paths": ["error", { zones: zones() }],
    "import-x/no-cycle": "error",
  },
};

// A file names a module outside its own folder by its root alias (~/, ~content/, ~server/, ~tests/, ~bench/).
const parentFolderImports = { group: ["../*"], message: "Import from another folder through its root alias (~/…), not ../ (tsconfig.json paths)." };
// The site never runs test or benchmark code: only tests beside the code may import the test helpers.
const testCodeImports = { group: ["~tests/*", "~bench/*"], message: "The site's code never imports tests/ or bench/; a test helper lives under tests/helpers/." };

export default tseslint.config(
  { ignores: ["build/", "build-*/", "data/", ".react-router/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  boundaries,
  { files: ["**/*.{ts,tsx}"], rules: { "no-restricted-imports": ["error", { patterns: [parentFolderImports] }] } },
  {
    // Code that can reach the browser takes zod from ~/lib/zod (or zod-mini), which turns off its eval probe (CSP).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.ts", "app/**/*.test.{ts,tsx}", "app/lib/zod.ts", "app/lib/zod-mini.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["zod", "zod/mini"].map((name) => ({ name, message: "Import z from ~/lib/zod or ~/lib/zod-mini (eval-free under the CSP).", allowTypeImports: true })),
          patterns: [parentFolderImports, testCodeImports],
        },
      ],
    },
  },
  {
    // A fetcher's submission without its own address goes to the router's current location, which may already be
    // the next screen's (the editor's preview posted to the published post). Name the address: `useFormAction()`.
    // Hooks in plain .ts files reach the browser too.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='submit'][arguments.length>=1]:not(:has(Property[key.name='action']))",
          message: "Give the submission its address ({ action }): without one it posts to wherever the router is now.",
        },
      ],
    },
  },
  {
    // The server-only files of app/ (the rule above covers the rest).
    files: ["app/**/*.server.ts"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [parentFolderImports, testCodeImports] }] },
  },
  {
    files: ["**/*.{js,mjs}"],
    // Node scripts (server start, build steps, benchmarks) use Node's and the web platform's globals.
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "fetch", "setTimeout", "clearTimeout", "URL", "Buffer", "AbortController", "performance", "Response", "Request", "Headers"].map(
          (name) => [name, "readonly"],
        ),
      ),
    },
  },
);
