import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { notFoundMeta } from "~/features/seo/page-meta";
import { NotFoundMain } from "~/components/not-found-main";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => notFoundMeta(args);

export default function NotFoundScreen() {
  return <NotFoundMain />;
}
