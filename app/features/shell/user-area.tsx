import { lazy, useDeferredValue } from "react";
import { Link } from "react-router";
import { HydrateLater } from "~/components/hydrate-later";
import { usePublicEnv } from "~/config/use-public-env";
import { useAuth } from "~/features/auth";

// The dropdown is a signed-in visitor's only: its code is no part of the first load. It is fetched when a user is
// shown, and until it has arrived the server's markup stays as it is (a page rendered for its user: the area
// hydrates later, and a tap meanwhile is kept) or the links stay shown (a user the browser has just heard of:
// useDeferredValue), so nothing moves.
const UserMenu = lazy(() => import("./user-menu").then((module) => ({ default: module.UserMenu })));

/**
 * The right end of the bar: the signed-in user's dropdown, else the logged-out links. Until the browser has asked
 * for the session it shows what the server knew (a server-rendered page reads the session; a prerendered one knows
 * nobody), so the bar is usable from the server's HTML alone.
 */
export function UserArea() {
  return (
    <HydrateLater>
      <UserAreaContent />
    </HydrateLater>
  );
}

function UserAreaContent() {
  const currentUser = useDeferredValue(useAuth().currentUser);
  const { appUrl } = usePublicEnv();

  if (currentUser) return <UserMenu user={currentUser} appUrl={appUrl} />;
  return (
    <div className="user-area">
      <StartLink appUrl={appUrl} />
      <Link className="user-area__link" to="/login">
        登入
      </Link>
      <Link className="user-area__link" to="/signup">
        註冊
      </Link>
    </div>
  );
}

/** 立即開始: the app in a new tab, or sign-up while no app is configured (never a placeholder address). */
function StartLink({ appUrl }: { appUrl: string | null }) {
  if (!appUrl) {
    return (
      <Link className="button button--primary" to="/signup">
        立即開始
      </Link>
    );
  }
  return (
    <a className="button button--primary" href={appUrl} target="_blank" rel="noopener">
      立即開始
    </a>
  );
}
