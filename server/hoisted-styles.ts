import { cspHashOf } from "~/features/security/csp.server";

/**
 * The stylesheets screens hoist into <head> as a <style> of their own (React's `precedence`, decision 200:
 * `ContentStyles`, `WishStyles`, `DevBlogStyles`). A client-side navigation adds one to a page whose CSP names
 * hashes rather than a nonce (a prerendered page, a visitor's cached page, a parent's kept page), where the start-up
 * pages may not hold it, so each text's hash joins theirs. `hoisted-styles.test.ts` holds this list to the screens'.
 */
export const hoistedStyles = import.meta.glob<string>(["../app/features/pages/content.css", "../app/features/wishes/wishes.css", "../app/features/dev-blog/dev-blog.css"], {
  query: "?inline",
  import: "default",
  eager: true,
});

export const hoistedStyleHashes = () => Object.values(hoistedStyles).map(cspHashOf);
