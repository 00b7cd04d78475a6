import { data } from "react-router";
import type { Route } from "./+types/learning-topic";
import { getTopic } from "~/features/articles/documents.server";
import { LearningTopic } from "~/features/articles/learning-pages";
import { pageMeta } from "~/features/seo/page-meta";

export function loader({ params }: Route.LoaderArgs) {
  const topic = getTopic(params["*"] ?? "");
  return data({ topic }, { status: topic ? 200 : 404 });
}

export const meta: Route.MetaFunction = (args) => {
  const topic = args.loaderData?.topic;
  if (!topic) return [...pageMeta(args, { title: "找不到這個主題" }), { name: "robots", content: "noindex" }];
  return pageMeta(args, { title: `${topic.title}｜學習資源`, description: topic.summary });
};

export default function LearningTopicScreen({ loaderData }: Route.ComponentProps) {
  return <LearningTopic topic={loaderData.topic} />;
}
