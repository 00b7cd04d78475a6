// Loaded with `node --import` before the React Router CLI (package.json's build and typecheck). @react-router/dev
// 7.18.4 starts its internal Vite servers with `envFile: false`, and Vite 8 answers each with "The `envFile` option
// is deprecated" (three times per build). The option is theirs, not ours, and nothing in our configuration reaches
// those servers; so this one notice is dropped and a clean build prints nothing to act on. Every other line of the
// console stays as it is. Remove this file once @react-router/dev stops passing the option.
const printWarning = console.warn.bind(console);
console.warn = (...parts) => {
  if (typeof parts[0] === "string" && parts[0].includes("The `envFile` option is deprecated")) return;
  printWarning(...parts);
};
