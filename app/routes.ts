import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@react-router/dev/routes";
// React Router reads this file before path aliases exist, so the route map comes by its relative path.
import { routeMap, type RouteEntry } from "./lib/route-map";

/**
 * React Router's route config, made from the route map (app/lib/route-map.ts), where each route of PRODUCT §2 and
 * each endpoint of our own is declared with what it is. Add a route there, not here.
 */
function configEntry(entry: RouteEntry): RouteConfigEntry {
  const id = entry.kind === "screen" && entry.id ? { id: entry.id } : {};
  return entry.path === "" ? index(entry.file, id) : route(entry.path, entry.file, id);
}

const insideLayout = (entry: RouteEntry) => entry.kind === "screen" && entry.layout;

export default [
  ...routeMap.filter((entry) => !insideLayout(entry)).map(configEntry),
  layout("routes/site/layout.tsx", routeMap.filter(insideLayout).map(configEntry)),
] satisfies RouteConfig;
