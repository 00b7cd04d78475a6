import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;

/**
 * The page's nonce: on the server the one the host chose for this answer; in the browser the one the page was
 * served with (the DOM hides the attribute but keeps the `nonce` property), so elements React adds later (a
 * hoisted <style>) carry it too. Prerendered pages have none: their CSP lists hashes instead.
 */
export function useNonce(): string | undefined {
  const fromServer = useContext(NonceContext);
  if (fromServer !== undefined || typeof document === "undefined") return fromServer;
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}
