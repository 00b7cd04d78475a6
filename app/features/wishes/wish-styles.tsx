import css from "./wishes.css?inline";
import { useNonce } from "~/features/security/csp-nonce";

/** The wishing well's CSS, hoisted into <head> once (the same way as the content screens, decision 200). */
export function WishStyles() {
  return (
    <style href="wish-styles" precedence="content" nonce={useNonce()}>
      {css}
    </style>
  );
}
