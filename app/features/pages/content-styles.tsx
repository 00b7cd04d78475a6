import { use } from "react";
import { useNonce } from "~/features/security/csp-nonce";

const href = "content-styles";

// The browser's copy of the CSS text loads on first need: a page the server rendered with these styles already has
// them in <head> (React adopts that <style> by its href and never reads the children again), so only a client-side
// navigation to the first content screen of a visit waits for it. The home page's first load stays 2 KB gzip lighter.
// A failed load is forgotten, so the next content screen tries again rather than failing for the rest of the visit.
let loadedCss: string | undefined;
let loading: Promise<string> | undefined;
const loadCss = () =>
  (loading ??= import("./content.css?inline").then(
    (module) => (loadedCss = module.default),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
// The server has the text from the start (a static import would put it back into the browser's first chunk).
const serverCss = import.meta.env.SSR ? await loadCss() : "";

function useCssText(): string {
  if (import.meta.env.SSR) return serverCss;
  if (loadedCss !== undefined) return loadedCss;
  if (document.querySelector(`style[data-href~="${href}"]`)) return "";
  return use(loadCss());
}

/**
 * The content screens' CSS as a `<style>` that React hoists into `<head>` and renders once however many
 * components ask for it: no render-blocking stylesheet request before the first paint (decision 200).
 */
export function ContentStyles() {
  return (
    <style href={href} precedence="content" nonce={useNonce()}>
      {useCssText()}
    </style>
  );
}
