import css from "./content.css?inline";

/**
 * The content screens' CSS as a `<style>` that React hoists into `<head>` and renders once however many
 * components ask for it: no render-blocking stylesheet request before the first paint (decision 200), and the
 * text travels in the JavaScript chunk for client-side navigations.
 */
export function ContentStyles() {
  return (
    <style href="content-styles" precedence="content">
      {css}
    </style>
  );
}
