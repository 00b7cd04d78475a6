import { Link } from "react-router";
import { NotFoundMain } from "~/components/not-found-main";
import { PageIntro } from "~/features/pages/page-intro";
import type { ConsoleClosed } from "./console-types";

/** The console when it does not open: the site's 404 for everyone but an admin; an admin is told what to do first. */
export function ConsoleGatePage({ closed }: { closed: ConsoleClosed }) {
  if (closed.state === "not-found") return <NotFoundMain />;
  return (
    <main className="page page--narrow">
      <PageIntro title="管理後台" lead="管理後台可以看到家長的帳號資料，進入前需要多一道保護。" />
      {closed.state === "needs-second-factor" ? (
        <p>
          管理員必須先開啟兩步驟驗證或新增密碼金鑰，才能使用管理後台。
          <Link className="button" to="/account/two-step">
            開啟兩步驟驗證
          </Link>
        </p>
      ) : closed.state === "needs-step-up" ? (
        <p>
          這次登入只用了密碼或其他一個步驟。請先用驗證器 App 的驗證碼或密碼金鑰確認身分，完成後會回到管理後台。
          <Link className="button" to={closed.confirmHref}>
            用驗證碼或密碼金鑰確認
          </Link>
        </p>
      ) : (
        <p>
          距離上次確認身分已超過 10 分鐘，請先用驗證碼或密碼金鑰確認是你本人。
          <Link className="button" to={closed.confirmHref}>
            確認身分
          </Link>
        </p>
      )}
    </main>
  );
}
