import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";

const links = [
  { to: "/", label: "首頁" },
  { to: "/features", label: "功能介紹" },
  { to: "/tutorial", label: "使用教學" },
  { to: "/pricing", label: "免費方案" },
  { to: "/wishing-well", label: "許願池" },
  { to: "/learning-resources", label: "學習資源" },
];

/** Minimal navigation bar; the site-shell issue completes it. */
export function SiteHeader() {
  const env = usePublicEnv();
  return (
    <header className="site-header">
      <Link to="/" className="site-header__logo">
        {env.productName}
      </Link>
      <nav aria-label="主要導覽">
        <ul className="site-header__links">
          {links.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
