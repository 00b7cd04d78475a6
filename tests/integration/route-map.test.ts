import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { isDevToolAddress, routeMap, type RouteEntry } from "~/lib/route-map";
import { prerenderedPaths } from "~/prerendered-paths";
import routeConfig from "~/routes";
import { routeExpectations, unmatchedVisits } from "~tests/e2e/helpers/routes";

/**
 * The route map (app/lib/route-map.ts) says what each route is, and the coverage lists read it; these checks keep
 * what it says true of the route modules, and keep every route in the lists.
 */
const source = (entry: RouteEntry) => fs.readFileSync(path.join("app", entry.file), "utf8");
const exportsAction = (text: string) => /export (async )?function action\b|export const action\b/.test(text);
const exportsScreen = (text: string) => /export default\b/.test(text);

function configFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...configFiles(entry.children ?? [])]);
}

describe("the route map", () => {
  it("is what React Router reads: every module of app/routes/ once, and no route added beside it", () => {
    const files = configFiles(routeConfig).filter((file) => file !== "routes/site/layout.tsx");
    expect([...files].sort()).toEqual(routeMap.map((entry) => entry.file).sort());
    const modules = fs.readdirSync("app/routes", { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => `routes/${file}`);
    expect(modules.filter((file) => file !== "routes/site/layout.tsx" && !files.includes(file))).toEqual([]);
  });

  it.each(routeMap.map((entry) => [entry.path || "/", entry] as const))("says what %s is, as its module does", (_path, entry) => {
    const text = source(entry);
    if (entry.kind === "screen") {
      expect(exportsScreen(text)).toBe(true);
      expect(exportsAction(text), "its action fact").toBe(entry.action);
    } else {
      // A resource or a development tool's JSON is a resource route (no default export); the mailbox screen is a page.
      expect(exportsScreen(text)).toBe(entry.kind === "dev-tool" && entry.page);
    }
  });

  it("never prerenders or lists a screen that is not for everyone", () => {
    const personal = routeMap.filter((entry) => entry.kind === "screen" && entry.audience !== "everyone" && (entry.prerendered || entry.listed));
    expect(personal.map((entry) => entry.path)).toEqual([]);
  });

  it("prerenders the screens it marks, each content page of a pattern included", async () => {
    const paths = await prerenderedPaths();
    expect(paths).toEqual(expect.arrayContaining(["/", "/login", "/signup", "/task-scheduler", "/blog", "/blog/chores-by-age", "/learning-resources/habits"]));
    expect(paths.filter((address) => /^\/(account|admin|dev|current-plan|wishing-well|login\/)/.test(address))).toEqual([]);
  });

  it("knows the development tools' addresses the way React Router matches them", () => {
    for (const address of ["/dev/mailbox", "/api/dev/mailbox", "/DEV/Mailbox", "/Api/Dev/MAILBOX/", "/%64ev/mailbox", "/dev%2Fmailbox"]) {
      expect(isDevToolAddress(address), address).toBe(true);
    }
    for (const address of ["/dev-blog", "/devmailbox", "/dev/mailbox/x", "/firebase-test", "/%zz"]) {
      expect(isDevToolAddress(address), address).toBe(false);
    }
  });
});

describe("the end-to-end route list", () => {
  it("has a visit for every page of the route map and none for a page it does not have", () => {
    expect(unmatchedVisits()).toEqual({ missing: [], unknown: [] });
    expect(routeExpectations().length).toBeGreaterThan(routeMap.filter((entry) => entry.kind === "screen").length);
  });
});
