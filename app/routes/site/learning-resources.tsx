import type { Route } from "./+types/learning-resources";
import { loadData } from "~/features/pages/data.server";
import { listTopics } from "~/features/articles/documents.server";
import { LearningIndex } from "~/features/articles/learning-pages";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => ({ intro: loadData("pages").learningResources, topics: listTopics() });

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "學習資源" });

export default function LearningResourcesScreen({ loaderData }: Route.ComponentProps) {
  return <LearningIndex {...loaderData} />;
}
