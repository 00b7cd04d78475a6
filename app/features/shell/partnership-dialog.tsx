import { usePublicEnv } from "~/config/use-public-env";
import { Dialog } from "~/components/ui/dialog";
import { mailtoHref } from "~/lib/mailto";

/** The original §2: welcome text for professionals, four collaboration types, a contact email with a subject. */
export function PartnershipDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { supportEmail } = usePublicEnv();
  return (
    <Dialog open={open} title="合作提案" onClose={onClose}>
      <p>歡迎老師、教育專家與兒童心理師提出合作提案或專業建議，一起讓孩子在遊戲中學會獨立與負責。</p>
      <h3 className="dialog__subtitle">合作方式</h3>
      <ul>
        <li>教學內容與任務設計</li>
        <li>專業諮詢與內容審閱</li>
        <li>講座、工作坊與親子活動</li>
        <li>學校與機構推廣合作</li>
      </ul>
      <a className="button button--primary" href={mailtoHref(supportEmail, "合作提案")}>
        寫信給我們：{supportEmail}
      </a>
    </Dialog>
  );
}
