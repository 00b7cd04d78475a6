import { getEnv } from "~/config/env.server";
import { toPublicEnv } from "~/config/public-env";
import { webManifest } from "~/features/seo/web-manifest";

export function loader() {
  return Response.json(webManifest(toPublicEnv(getEnv())), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
