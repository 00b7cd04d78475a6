import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";

/** Minimal footer; the site-shell issue completes it. */
export function SiteFooter() {
  const env = usePublicEnv();
  return (
    <footer className="site-footer">
      <nav aria-label="頁尾導覽">
        <ul>
          <li><Link to="/about">關於我們</Link></li>
          <li><Link to="/faq">常見問題</Link></li>
          <li><Link to="/privacy">隱私權政策</Link></li>
          <li><Link to="/terms">服務條款</Link></li>
        </ul>
      </nav>
      <p>
        © {new Date().getFullYear()} {env.productName}
      </p>
    </footer>
  );
}
