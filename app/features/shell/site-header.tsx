import { Link, NavLink } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { track } from "~/features/analytics/track";
import { LogoMark } from "./logo-mark";
import { navLinks } from "./nav-links";
import { UserArea } from "./user-area";
import { useDisclosure } from "./use-disclosure";
import { useScrolled } from "./use-scrolled";

/**
 * The navigation bar (PRODUCT §4): logo, six links, user area. On small screens they sit in a `<details>`
 * disclosure, so 選單 opens from the server's HTML alone (without JavaScript, or before it has arrived); on wide
 * screens the same markup is an inline row (shell.css).
 */
export function SiteHeader() {
  const { productName } = usePublicEnv();
  const scrolled = useScrolled();
  const { close, detailsProps } = useDisclosure((open) => track("menu_toggle", { is_open: open }));

  return (
    <header className={scrolled ? "site-header site-header--scrolled" : "site-header"}>
      <div className="site-header__inner">
        <Link to="/" className="site-header__logo" onClick={() => track("logo_click")}>
          <LogoMark label={productName} />
          <span aria-hidden="true">{productName}</span>
        </Link>
        <details className="site-header__disclosure" {...detailsProps}>
          <summary className="site-header__toggle">
            <span className="site-header__toggle-icon" aria-hidden="true" />
            選單
          </summary>
          <div className="site-header__menu">
            <nav aria-label="主要導覽">
              <ul className="site-header__links">
                {navLinks.map((link) => (
                  <li key={link.to}>
                    <NavLink
                      to={link.to}
                      end={link.end}
                      className="site-header__link"
                      onClick={() => {
                        track("nav_click", { destination: link.to });
                        close(); // also when the link is the current page, where no route change follows
                      }}
                    >
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <UserArea />
          </div>
        </details>
      </div>
    </header>
  );
}
