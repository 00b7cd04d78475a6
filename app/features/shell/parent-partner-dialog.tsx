import { usePublicEnv } from "~/config/use-public-env";
import { Dialog } from "~/components/ui/dialog";
import { mailtoHref } from "~/lib/mailto";

/** The original §2: two partner types, three steps, a contact email with a subject. */
export function ParentPartnerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { supportEmail } = usePublicEnv();
  return (
    <Dialog open={open} title="家長夥伴互助" onClose={onClose}>
      <p>我們正在尋找願意一起陪伴更多家庭的夥伴：</p>
      <ul>
        <li>
          <strong>親子教養內容創作者</strong>：部落客、YouTuber、Podcaster，分享你的教養經驗。
        </li>
        <li>
          <strong>家長社群經營者</strong>：家長社團、班級群組、讀書會的召集人。
        </li>
      </ul>
      <h3 className="dialog__subtitle">合作三步驟</h3>
      <ol>
        <li>來信介紹你自己和你的頻道或社群。</li>
        <li>我們一起討論適合的互助方式。</li>
        <li>開始分享，並定期交流成果與回饋。</li>
      </ol>
      <a className="button button--primary" href={mailtoHref(supportEmail, "家長夥伴互助合作")}>
        寫信給我們：{supportEmail}
      </a>
    </Dialog>
  );
}
