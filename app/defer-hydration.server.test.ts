import { describe, expect, it } from "vitest";
import { deferHydration, dependenciesFirst } from "./defer-hydration.server";

// The shape react-router 7.18.4's <Scripts /> writes (abridged), split route modules included.
const page = [
  `<html><head><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/framework-B.js"/></head><body>`,
  `<script>window.__reactRouterContext = {};</script>`,
  `<script type="module" async="">;\nimport * as route0 from "/assets/root-C.js";\nimport * as route1_clientLoader from "/assets/home-D.js";\nimport * as route1_main from "/assets/home-E.js";\nconst route1 = {...route1_clientLoader,...route1_main};\n  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-A.js");</script>`,
  `</body></html>`,
].join("");

describe("deferHydration", () => {
  const result = deferHydration(page);

  it("drops the modulepreload links and adds them from the script after the first paint", () => {
    expect(result).not.toContain(`<link rel="modulepreload"`);
    expect(result).toContain(`["/assets/entry.client-A.js","/assets/framework-B.js"]`);
    expect(result.indexOf(`observe({type:"paint",buffered:true})`)).toBeLessThan(result.indexOf("modulepreload"));
  });

  it("turns the static route imports into dynamic ones loaded together, keeping the rest of the script", () => {
    expect(result).not.toMatch(/import \* as/);
    expect(result).toContain(
      `const [route0,route1_clientLoader,route1_main]=await Promise.all([import("/assets/root-C.js"),import("/assets/home-D.js"),import("/assets/home-E.js")]);`,
    );
    expect(result).toContain(`const route1 = {...route1_clientLoader,...route1_main};`);
    expect(result).toContain(`import("/assets/entry.client-A.js");</script>`);
    expect(result).toContain(`<script>window.__reactRouterContext = {};</script>`);
  });

  it("adds each preload and evaluates each module in a turn of its own, the entry module last, as the body imports it", () => {
    expect(result).toContain(`for(const href of ["/assets/entry.client-A.js","/assets/framework-B.js"]){await nextTurn();`);
    expect(result).toContain(`for(const href of ["/assets/framework-B.js"]){await nextTurn();await import(href)}`);
    // The route modules are then already evaluated; the body (which imports the entry module) starts a turn later.
    expect(result.indexOf(`await import(href)}`)).toBeLessThan(result.indexOf(`await Promise.all(`));
    expect(result).toMatch(/\]\);await nextTurn\(\);\s*const route1 = /);
  });

  it("evaluates the entry's imports in their order, then each route's chunks backwards before the route's modules", () => {
    const preloads = ["entry", "runtime", "react-dom", "framework", "root", "shell", "hydrate-later", "login-main", "login-action", "form", "schemas", "zod", "api"];
    expect(dependenciesFirst(preloads, new Set(["root", "login-main", "login-action"]))).toEqual([
      "entry", "runtime", "react-dom", "framework", "hydrate-later", "shell", "root", "api", "zod", "schemas", "form", "login-main", "login-action",
    ]);
  });

  it("leaves markup without React Router's module script as it is", () => {
    const plain = `<html><head><link rel="modulepreload" href="/a.js"/></head><body><p>hi</p></body></html>`;
    expect(deferHydration(plain)).toBe(plain);
  });

  it("does the same on a server-rendered page, whose tags carry the CSP nonce first", () => {
    const nonce = `nonce="abc123"`;
    const rendered = deferHydration(
      page.replace(/<link rel="modulepreload" href="([^"]+)"\/>/g, `<link rel="modulepreload" href="$1" ${nonce}/>`).replace(/<script /g, `<script ${nonce} `).replace(/<script>/g, `<script ${nonce}>`),
    );
    expect(rendered).not.toContain(`<link rel="modulepreload"`);
    expect(rendered).toContain(`<script ${nonce} type="module" async="">{const taps=[];`);
    expect(rendered).toContain(`await new Promise(`);
    expect(rendered).not.toMatch(/import \* as/);
  });
});
