import { usePublicEnv } from "~/config/use-public-env";
import { track } from "~/features/analytics/track";
import { Dialog } from "~/components/ui/dialog";

// What 追蹤我們 offers, by where it leads (public-env.ts: followUs).
const wording = {
  community: { lead: "的 Facebook 社團，第一時間收到新功能、親子任務點子，也能和其他家長交流。", verb: "加入", button: "前往 Facebook 社團" },
  page: { lead: "的 Facebook 粉絲專頁，第一時間收到新功能和親子任務點子。", verb: "追蹤", button: "前往 Facebook 粉絲專頁" },
  news: { lead: "的「最新消息」，新功能和活動都會先公布在那裡。", verb: "看看", button: "前往最新消息" },
};

export function FollowDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { followUs, productName } = usePublicEnv();
  const words = wording[followUs.kind];
  const external = followUs.kind !== "news";
  return (
    <Dialog open={open} title="追蹤我們" onClose={onClose}>
      <p>
        {words.verb}
        {productName}
        {words.lead}
      </p>
      <a
        className="button button--primary"
        href={followUs.href}
        target={external ? "_blank" : undefined}
        rel={external ? "noopener noreferrer" : undefined}
        onClick={() => track("fanpage_support_click", { source: "follow_us_dialog" })}
      >
        {words.button}
      </a>
    </Dialog>
  );
}
