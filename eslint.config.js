import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build-test/", "data/", ".react-router/", "node_modules/", "coverage/"] },
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
