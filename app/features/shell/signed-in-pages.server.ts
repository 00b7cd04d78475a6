import { displayNameOf, type SessionUser } from "~/features/auth";
import { getAuthService, getServerSessionUser, sessionUserOf } from "~/features/auth/index.server";
import { cspNonceHeader } from "~/features/security/csp.server";
import { fixedPiece, gzipPieces, storedPiece, type Piece } from "./gzip-pieces.server";

/**
 * A page that is the same for every visitor (prerendered, decision 1030), as a signed-in parent sees it: the same
 * HTML with their user area, and their session user in React Router's data (decision 702, 2026-11-29 addendum).
 * Rendering the whole page again per request cost about six times the visitor's answer. Instead, the page is rendered
 * once per shape of user (guest or not, verified or not, which fields are set) for a user made of markers, through
 * the very renderer, and each request fills the markers in with the parent's values, escaped as React and React
 * Router escape them: the bytes of a fresh render, with this answer's nonce (the test compares the two).
 */

/** Set by the host on the one request that renders a template (and removed from every request a client sends). */
export const templateHeader = "x-signed-in-template";

/** Values no page holds, each unique, so every place a user's value lands in the HTML is found. */
const markers = { uid: "zqxuidzqx", email: "zqxemailzqx@zqx.invalid", displayName: "zqxnamezqx", photoURL: "/zqxphotozqx.png", nonce: "zqxnoncezqx" };
const shapeFields = ["isAnonymous", "emailVerified", "email", "displayName", "photoURL"] as const;

/** Which fields are set (or true): users of one shape get the same markup around their values. */
function shapeOf(user: SessionUser): string {
  return shapeFields.map((field) => (user[field] === null || user[field] === false ? "0" : "1")).join("");
}

/** The marker user of a template request (the root loader renders the page for it), else null. */
export function templateUserOf(request: Request): SessionUser | null {
  const shape = request.headers.get(templateHeader);
  if (!shape || !/^[01]{5}$/.test(shape)) return null;
  const set = (index: number) => shape[index] === "1";
  // In the order of the root loader's own user (getServerSessionUser): React Router's data keeps the keys' order.
  return {
    uid: markers.uid,
    email: set(2) ? markers.email : null,
    displayName: set(3) ? markers.displayName : null,
    emailVerified: set(1),
    isAnonymous: set(0),
    photoURL: set(4) ? markers.photoURL : null,
  };
}

/** A photo address React writes as it is (never empty, never a `javascript:` one, which it would replace). */
const plainPhoto = /^(?:https:\/\/|\/(?!\/))[^\s"'<>\\]*$/;
/** A user whose every field a template has a place for, as the root loader gives it. */
const fillable = (user: SessionUser) =>
  typeof user.isAnonymous === "boolean" && (user.photoURL === null || (typeof user.photoURL === "string" && plainPhoto.test(user.photoURL)));

type Slot = keyof typeof markers | "shownName";
/** The template: text, then a slot, then text…; a slot in a script holds data, anywhere else markup. */
interface Template {
  parts: string[];
  /** Each distinct value the page holds (a field, in data or in markup); a page holds each several times (the nonce in every script). */
  values: { slot: Slot; inScript: boolean }[];
  /** Between part i and part i + 1: which of `values`. */
  slots: number[];
  /** The parts, each compressed once, for a gzip answer that compresses only the values per request. */
  compressedParts: Piece[];
}

/** A template filled in: its HTML, or the same as gzip (each made when asked for). */
export interface FilledPage {
  html: () => string;
  gzip: () => Buffer;
}

/** React's escaping of text and attribute values. */
const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (character) => htmlEscapes[character]!);

/** A string in React Router's data script: JSON inside the JSON string `enqueue(…)` takes, HTML-escaped as it does. */
const scriptEscapes: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };
const escapeInData = (text: string) => JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1).replace(/[&><\u2028\u2029]/g, (character) => scriptEscapes[character]!);

const dataScript = "window.__reactRouterContext.streamController.enqueue(";
const emailName = markers.email.split("@")[0]!;
/** Where each value may stand: the user's fields in React Router's data, the name shown and the photo in markup. */
const dataSlots = new Set<Slot>(["uid", "email", "displayName", "photoURL"]);
const markupSlots = new Set<Slot>(["shownName", "photoURL"]);

/**
 * Cuts a template render at its markers. Null when a marker stands anywhere but where it can be filled in exactly:
 * the data script for the user's fields, markup for the name shown and the photo, anywhere for the nonce.
 */
function templateOf(html: string, user: SessionUser): Template | null {
  // The email marker before its local part, which is the name shown when a user has none.
  const found: [string, Slot][] = [[markers.email, "email"], [markers.uid, "uid"], [markers.displayName, "displayName"], [markers.photoURL, "photoURL"], [markers.nonce, "nonce"]];
  if (displayNameOf(user) === emailName) found.push([emailName, "shownName"]);
  const pattern = new RegExp(found.map(([marker]) => marker.replaceAll(".", "\\.")).join("|"), "g");
  const parts: string[] = [];
  const values: Template["values"] = [];
  const slots: Template["slots"] = [];
  let at = 0;
  for (const match of html.matchAll(pattern)) {
    const [, marked] = found.find(([marker]) => marker === match[0])!;
    const scriptAt = html.lastIndexOf("<script", match.index);
    const inScript = scriptAt > html.lastIndexOf("</script>", match.index);
    const slot = marked === "displayName" && !inScript ? "shownName" : marked;
    const fits = slot === "nonce" || (inScript ? dataSlots.has(slot) && html.startsWith(dataScript, html.indexOf(">", scriptAt) + 1) : markupSlots.has(slot));
    if (!fits) return null;
    parts.push(html.slice(at, match.index));
    const known = values.findIndex((value) => value.slot === slot && value.inScript === inScript);
    slots.push(known === -1 ? values.push({ slot, inScript }) - 1 : known);
    at = match.index + match[0].length;
  }
  parts.push(html.slice(at));
  if (parts.length === 1) return null;
  return { parts, values, slots, compressedParts: parts.map((part) => fixedPiece(Buffer.from(part))) };
}

function fill(template: Template, user: SessionUser, nonce: string): FilledPage {
  const values: Record<Slot, string> = {
    uid: user.uid,
    email: user.email ?? "",
    displayName: user.displayName ?? "",
    photoURL: user.photoURL ?? "",
    shownName: displayNameOf(user),
    nonce,
  };
  // Each value escaped, and stored, once however often the page holds it.
  const texts = template.values.map(({ slot, inScript }) => (slot === "nonce" ? values[slot] : inScript ? escapeInData(values[slot]) : escapeMarkup(values[slot])));
  return {
    html: () => template.parts.map((part, index) => (index ? texts[template.slots[index - 1]!]! : "") + part).join(""),
    gzip: () => {
      const stored = texts.map((text) => storedPiece(Buffer.from(text)));
      const pieces: Piece[] = [template.compressedParts[0]!];
      for (let index = 1; index < template.compressedParts.length; index += 1) pieces.push(stored[template.slots[index - 1]!]!, template.compressedParts[index]!);
      return gzipPieces(pieces);
    },
  };
}

/**
 * The signed-in answers of the pages at `paths`. `render` is React Router's request handler; `siteUrl` the
 * address templates are rendered at. `answer` gives the HTML for the request's parent with `nonce`, or null: no
 * parent behind the cookie, a photo address React would rewrite, or a page that could not be made a template
 * (the page is then rendered per request, as before).
 */
export function signedInPages(options: { render: (request: Request) => Promise<Response>; siteUrl: string; paths: ReadonlySet<string> }) {
  const templates = new Map<string, Promise<Template | null>>();
  const templateFor = (path: string, shape: string) => {
    const key = `${shape}${path}`;
    let template = templates.get(key);
    if (!template) {
      const request = new Request(new URL(path, options.siteUrl), { headers: { [templateHeader]: shape, [cspNonceHeader]: markers.nonce } });
      template = options.render(request).then(
        async (response) => {
          const html = await response.text();
          // A failed render is tried again by the next request; a page that cannot be a template stays rendered per request.
          if (response.status !== 200) templates.delete(key);
          return response.status === 200 ? templateOf(html, templateUserOf(request)!) : null;
        },
        (error: unknown) => {
          templates.delete(key);
          throw error;
        },
      );
      templates.set(key, template);
    }
    return template;
  };
  const filledFor = async (user: SessionUser | null, path: string, nonce: string) => {
    if (!user || !fillable(user)) return null;
    const template = await templateFor(path, shapeOf(user));
    return template && fill(template, user, nonce);
  };
  return {
    has: (path: string) => options.paths.has(path),
    answer: async (request: Request, path: string, nonce: string): Promise<FilledPage | null> => filledFor(await getServerSessionUser(request), path, nonce),
    /**
     * The same from a request's Cookie header alone, for the answer in front of the middleware chain
     * (server/signed-in-pages.ts): null also where the session is Better Auth's to answer (it has something to write)
     * and where the read fails; the chain then answers, with all it does for such a request.
     */
    async answerFromCookie(cookie: string, path: string, nonce: string): Promise<FilledPage | null> {
      const current = await getAuthService().readSessionUnlessDue({ get: (name) => (name === "cookie" ? cookie : null) });
      return current ? filledFor(sessionUserOf(current), path, nonce) : null;
    },
  };
}
