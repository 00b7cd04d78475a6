import css from "./dev-blog.css?inline";
import { useNonce } from "~/features/security/csp-nonce";

/** The dev blog's CSS, hoisted into <head> once (the same approach as the content screens' ContentStyles). */
export function DevBlogStyles() {
  return (
    <style href="dev-blog-styles" precedence="content" nonce={useNonce()}>
      {css}
    </style>
  );
}
