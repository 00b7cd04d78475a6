import { usePublicEnv } from "~/config/use-public-env";
import { track } from "~/features/analytics/track";
import { Dialog } from "~/components/ui/dialog";

export function FollowDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { facebookCommunityUrl, productName } = usePublicEnv();
  return (
    <Dialog open={open} title="追蹤我們" onClose={onClose}>
      <p>加入{productName}的 Facebook 社團，第一時間收到新功能、親子任務點子，也能和其他家長交流。</p>
      <a
        className="button button--primary"
        href={facebookCommunityUrl}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => track("fanpage_support_click", { source: "follow_us_dialog" })}
      >
        前往 Facebook 社團
      </a>
    </Dialog>
  );
}
