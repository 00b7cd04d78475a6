import type { MetaDescriptor } from "react-router";
import type { PublicEnv } from "~/config/public-env";

interface MetaArgsLike {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

/** The root loader's browser-safe configuration, as seen from a route's `meta` function. */
export function envFromMatches(args: MetaArgsLike): PublicEnv | undefined {
  const root = args.matches.find((match) => match?.id === "root");
  return (root?.loaderData as { env?: PublicEnv } | undefined)?.env;
}

/** `<title>` as `<page> | <product>` plus the page description. */
export function pageMeta(args: MetaArgsLike, page: { title: string; description?: string }): MetaDescriptor[] {
  const productName = envFromMatches(args)?.productName ?? "";
  const title = productName ? `${page.title} | ${productName}` : page.title;
  return [
    { title },
    ...(page.description ? [{ name: "description", content: page.description }] : []),
  ];
}
