import { createHmac, timingSafeEqual } from "node:crypto";
import type { Auth } from "./auth.server";

export type SessionAnswer = Awaited<ReturnType<Auth["api"]["getSession"]>>;

/** A cookie's value as better-call reads it for Better Auth: the first pair of that name, unquoted, URI-decoded. */
function cookieValue(header: string, name: string): string | null {
  let index = 0;
  while (index < header.length) {
    const equals = header.indexOf("=", index);
    if (equals === -1) return null;
    let end = header.indexOf(";", index);
    if (end === -1) end = header.length;
    else if (end < equals) {
      index = header.lastIndexOf(";", equals - 1) + 1;
      continue;
    }
    if (header.slice(index, equals).trim() === name) {
      let value = header.slice(equals + 1, end).trim();
      if (value.codePointAt(0) === 34) value = value.slice(1, -1);
      try {
        return value.includes("%") ? decodeURIComponent(value) : value;
      } catch {
        return value;
      }
    }
    index = end + 1;
  }
  return null;
}

/** The token of a signed cookie value (`token.base64(HMAC-SHA256)`), or null when the signature is not the secret's. */
function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature)) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  return timingSafeEqual(Buffer.from(signature, "base64"), expected) ? token : null;
}

/**
 * The session behind a page load's headers, the answer `auth.api.getSession` gives, for the case that is nearly
 * every page load: a valid session with nothing to write. Better Auth's call runs its endpoint machinery (a context
 * per call and per hook, output filtering, WebCrypto) around one lookup, three quarters of a signed-in page's CPU
 * (docs/performance.md, "Eleventh round"). This reads the same cookie with the same secret and looks the session up
 * through the same `internalAdapter.findSession` (and so the absolute-lifetime check of sessions.server.ts).
 * `undefined` hands the request to Better Auth: a session that has ended (it is deleted there), one due to slide
 * (its row and cookie are renewed there), and a session signed in without "remember me" (never slid). The test
 * (tests/integration/page-session-read.test.ts) holds the two answers equal on both databases.
 */
export function pageSessionReader(auth: Auth) {
  return async (headers: Headers): Promise<SessionAnswer | undefined> => {
    const context = await auth.$context;
    const cookies = headers.get("cookie");
    const signed = cookies && cookieValue(cookies, context.authCookies.sessionToken.name);
    if (!signed) return null;
    if (cookieValue(cookies, context.authCookies.dontRememberToken.name) !== null) return undefined;
    const token = verifiedToken(signed, context.secret);
    if (!token) return null;
    const found = await context.internalAdapter.findSession(token);
    if (!found) return null;
    const expiresAt = found.session.expiresAt.getTime();
    const { expiresIn, updateAge } = context.sessionConfig;
    const ended = expiresAt < Date.now();
    const dueToSlide = expiresAt - expiresIn * 1000 + updateAge * 1000 <= Date.now();
    if (ended || dueToSlide) return undefined;
    return found as SessionAnswer;
  };
}
