import { Suspense, lazy, useEffect, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { useAuth, useAuthRefresh, type SessionUser, displayNameOf } from "~/features/auth";
import { authHref, guestUpgradeLabel } from "~/features/sign-in/auth-paths";
import { useDisclosure } from "./use-disclosure";

// 更換大頭貼 loads when the dropdown first opens: it needs JavaScript to upload anyway, and most page views never
// open the dropdown (the first-load budget of PRODUCT §9).
const ProfilePhotoPicker = lazy(() => import("~/features/storage/profile-photo-picker").then((module) => ({ default: module.ProfilePhotoPicker })));

/** A guest has no account to sign back in to: what signing out costs, said before it happens. */
const guestSignOutWarning = "訪客的資料只存在這個瀏覽器，登出後就會遺失。";

/** The signed-in user's dropdown (its own chunk: only a signed-in visitor needs it, see user-area.tsx). */
export function UserMenu({ user, appUrl }: { user: SessionUser; appUrl: string | null }) {
  const { logout } = useAuth();
  const refresh = useAuthRefresh();
  const { pathname } = useLocation();
  const [opened, setOpened] = useState(false);
  const { close, detailsProps } = useDisclosure((open) => open && setOpened(true));
  // Opened before the scripts arrived: that toggle happened before anyone listened, so look once after hydration.
  useEffect(() => {
    const frame = requestAnimationFrame(() => detailsProps.ref.current?.open && setOpened(true));
    return () => cancelAnimationFrame(frame);
  }, [detailsProps.ref]);

  // Without JavaScript the form posts to the login route's sign-out; with it, the session ends in place.
  const signOut = (event: React.FormEvent) => {
    event.preventDefault();
    if (user.isAnonymous && !window.confirm(`${guestSignOutWarning}確定要登出嗎？`)) return;
    close();
    // The original: a logout failure is only logged.
    logout().catch((error: unknown) => console.error("登出失敗", error));
  };

  return (
    <details className="user-area user-menu" {...detailsProps}>
      <summary className="user-menu__toggle">
        <Avatar photoURL={user.photoURL} />
        <span className="user-menu__name">{displayNameOf(user)}</span>
      </summary>
      <ul className="user-menu__list">
        <li className="user-menu__profile">
          <Avatar photoURL={user.photoURL} size={48} />
          <span>{displayNameOf(user)}</span>
        </li>
        {user.isAnonymous ? (
          <li>
            <Link className="user-menu__upgrade" to={authHref("/signup", pathname)}>
              {guestUpgradeLabel}
            </Link>
          </li>
        ) : null}
        {opened ? (
          <li>
            <Suspense fallback={null}>
              <ProfilePhotoPicker uid={user.uid} onUploaded={() => void refresh().catch(() => undefined)} />
            </Suspense>
          </li>
        ) : null}
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
        {/* The app signs the parent in by itself through the site's OpenID provider (single sign-on). */}
        {appUrl ? (
          <li>
            <a href={appUrl}>進入應用程式</a>
          </li>
        ) : null}
        {user.isAnonymous ? (
          <li>
            <p className="user-menu__warning">{guestSignOutWarning}</p>
          </li>
        ) : null}
        <li>
          <Form method="post" action={authHref("/login", pathname)} onSubmit={signOut}>
            <button type="submit" name="intent" value="logout">
              登出
            </button>
          </Form>
        </li>
      </ul>
    </details>
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
