/**
 * Whether this browser can use passkeys here, known without loading the passkey client (a few hundred bytes, so the
 * login screen can decide at its first render after hydration). Android WebViews (LINE's in-app browser among them)
 * have no WebAuthn API at all; a site opened by its IP address cannot be a passkey's domain (WebAuthn's relying-party
 * id), so it offers none rather than an error on every visit.
 */
export const passkeysSupportedHere = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && !isIpAddress(window.location.hostname);

/** `192.168.1.20`, `[::1]` or `::1` (a host name has letters outside hex, or no colon and not four numbers). */
export const isIpAddress = (hostname: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.replace(/^\[|\]$/g, "").includes(":");

/**
 * The same test as an inline script, run in the head while the page is parsed (passkey-support-mark.tsx): where passkeys
 * cannot work it marks `<html data-passkeys="none">`, and the stylesheet never paints the button, so nothing moves
 * when the scripts arrive and take it away (it moved the login card 19 px: CLS 0.355 on a phone).
 */
export const markWithoutPasskeys =
  'if(typeof PublicKeyCredential!="function"||/^\\d{1,3}(\\.\\d{1,3}){3}$|:/.test(location.hostname))document.documentElement.dataset.passkeys="none"';
