import { useNonce } from "~/features/security/csp-nonce";
import { markWithoutPasskeys } from "./passkey-support";

/**
 * In the head of every page, before anything is painted: marks `<html data-passkeys="none">` where passkeys cannot
 * work, so that the login screen's passkey button is never painted there (auth-screens.css) and nothing moves when
 * the scripts take it away. In the head rather than beside the button: a script in the body is a point where the
 * browser may paint the half-parsed page, and the rest of the card then pushed it (CLS 0.018 on a cold load).
 */
export function PasskeySupportMark() {
  return <script nonce={useNonce()} dangerouslySetInnerHTML={{ __html: markWithoutPasskeys }} suppressHydrationWarning />;
}
