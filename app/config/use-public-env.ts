import { useRouteLoaderData } from "react-router";
import type { PublicEnv } from "./public-env";

/** The browser-safe configuration, as the root loader handed it to every screen. */
export function usePublicEnv(): PublicEnv {
  const data = useRouteLoaderData("root") as { env: PublicEnv } | undefined;
  if (!data) throw new Error("usePublicEnv must be used below the root route");
  return data.env;
}
