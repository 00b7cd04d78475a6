import type { MetaDescriptor } from "react-router";
import { notFoundMeta, pageMeta } from "~/features/seo/page-meta";
import { statusLabels, type Wish } from "./wish-rules";

type MetaArgs = Parameters<typeof pageMeta>[0];

/** A wish's title, description and Open Graph tags, so a link shared on LINE shows the wish itself. */
export function wishMeta(args: MetaArgs, wish: Wish | undefined): MetaDescriptor[] {
  if (!wish) return notFoundMeta(args);
  const summary = wish.body ? [...wish.body].slice(0, 90).join("") : "一起替這個願望投一票。";
  return pageMeta(args, {
    title: `${wish.title}｜許願池`,
    description: `【${statusLabels[wish.status]}・${wish.voteCount} 票】${summary}`,
  });
}
