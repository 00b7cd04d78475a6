import { useId } from "react";
import { Link, NavLink } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { track } from "~/features/analytics/track";
import { LogoMark } from "./logo-mark";
import { navLinks } from "./nav-links";
import { UserArea } from "./user-area";
import { useDisclosure } from "./use-disclosure";
import { useScrolled } from "./use-scrolled";

/** The navigation bar (PRODUCT §4): logo, six links, user area; a disclosure menu on small screens. */
export function SiteHeader() {
  const { productName } = usePublicEnv();
  const scrolled = useScrolled();
  const { open, toggle, close, containerRef, toggleRef } = useDisclosure();
  const menuId = useId();

  return (
    <header className={scrolled ? "site-header site-header--scrolled" : "site-header"}>
      <div className="site-header__inner" ref={containerRef}>
        <Link to="/" className="site-header__logo" onClick={() => track("logo_click")}>
          <LogoMark label={productName} />
          <span aria-hidden="true">{productName}</span>
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="site-header__toggle"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => track("menu_toggle", { is_open: toggle() })}
        >
          <span className="site-header__toggle-icon" aria-hidden="true" />
          選單
        </button>
        <div id={menuId} className={open ? "site-header__menu site-header__menu--open" : "site-header__menu"}>
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
      </div>
    </header>
  );
}
