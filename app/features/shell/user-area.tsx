import { useId } from "react";
import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { useAuth, useAuthRefresh } from "~/features/auth/auth-provider";
import { ProfilePhotoPicker } from "~/features/storage/profile-photo-picker";
import type { SessionUser } from "~/features/auth/auth-types";
import { displayNameOf } from "~/features/auth/display-name";
import { useDisclosure } from "./use-disclosure";

/** The right end of the bar: loading text, the logged-out links, or the signed-in user's dropdown. */
export function UserArea() {
  const { loading, currentUser } = useAuth();
  const { appUrl } = usePublicEnv();

  if (loading) return <p className="user-area user-area__loading">載入中...</p>;
  if (currentUser) return <UserMenu user={currentUser} appUrl={appUrl} />;
  return (
    <div className="user-area">
      <a className="button button--primary" href={appUrl} target="_blank" rel="noopener">
        立即開始
      </a>
      <Link className="user-area__link" to="/login">
        登入
      </Link>
      <Link className="user-area__link" to="/signup">
        註冊
      </Link>
    </div>
  );
}

function UserMenu({ user, appUrl }: { user: SessionUser; appUrl: string }) {
  const { logout } = useAuth();
  const refresh = useAuthRefresh();
  const { open, toggle, close, containerRef, toggleRef } = useDisclosure();
  const menuId = useId();

  const signOut = () => {
    close();
    // The original: a logout failure is only logged.
    logout().catch((error: unknown) => console.error("登出失敗", error));
  };

  return (
    <div className="user-area user-menu" ref={containerRef}>
      <button
        ref={toggleRef}
        type="button"
        className="user-menu__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={toggle}
      >
        <Avatar photoURL={user.photoURL} />
        <span className="user-menu__name">{displayNameOf(user)}</span>
      </button>
      <ul id={menuId} className="user-menu__list" hidden={!open}>
        <li className="user-menu__profile">
          <Avatar photoURL={user.photoURL} size={48} />
          <span>{displayNameOf(user)}</span>
        </li>
        <li>
          <ProfilePhotoPicker uid={user.uid} onUploaded={() => void refresh().catch(() => undefined)} />
        </li>
        <li>
          <Link to="/current-plan">目前方案</Link>
        </li>
        {/* A guest has no password and only this browser: nothing to secure there yet. */}
        {user.isAnonymous ? null : (
          <>
            <li>
              <Link to="/account">帳號設定</Link>
            </li>
            <li>
              <Link to="/account/security">帳號安全</Link>
            </li>
          </>
        )}
        <li>
          <a href={appUrl}>進入應用程式</a>
        </li>
        <li>
          <button type="button" onClick={signOut}>
            登出
          </button>
        </li>
      </ul>
    </div>
  );
}

function Avatar({ photoURL, size = 32 }: { photoURL?: string | null; size?: number }) {
  if (photoURL) return <img className="user-menu__avatar" src={photoURL} alt="" width={size} height={size} />;
  return (
    <svg className="user-menu__avatar" viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <circle cx="16" cy="16" r="16" fill="var(--color-brand-soft)" />
      <circle cx="16" cy="13" r="5.5" fill="var(--color-brand-strong)" />
      <path d="M6.5 26.5c1.8-4.6 5.3-7 9.5-7s7.7 2.4 9.5 7" fill="var(--color-brand-strong)" />
    </svg>
  );
}
