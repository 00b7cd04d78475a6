import { randomBytes } from "node:crypto";
import { displayNameOf, type SessionUser } from "~/features/auth";
import { getAuthService, getServerSessionUser, sessionUserOf } from "~/features/auth/index.server";
import { cspHashOf, cspNonceHeader, inlineScriptTexts, inlineStyleTexts } from "~/features/security/csp.server";
import { onPublicContentChanged } from "~/services/public-content.server";
import { fixedPieces, gzipPieces, storedPiece, type Piece } from "./gzip-pieces.server";

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
/** With it, on a page with a viewer's variant: what the page's loader shows the marker user (`PageVariants.hint`). */
export const templateVariantHeader = "x-signed-in-template-variant";

/**
 * Values no page holds, each unique, so every place a user's value lands in the HTML is found. Random per process:
 * a page of the parents' own words (a wish) cannot hold one, or the template would put each reader's name there.
 */
const secret = randomBytes(9).toString("hex");
const markers = { uid: `zqxuid${secret}`, email: `zqxemail${secret}@zqx.invalid`, displayName: `zqxname${secret}`, photoURL: `/zqxphoto${secret}.png`, nonce: `zqxnonce${secret}` };
const shapeFields = ["isAnonymous", "emailVerified", "email", "displayName", "photoURL"] as const;

/** Which fields are set (or true): users of one shape get the same markup around their values. */
function shapeOf(user: SessionUser): string {
  return shapeFields.map((field) => (user[field] === null || user[field] === false ? "0" : "1")).join("");
}

/** The variant a template request renders (its loader shows the marker user that), else null. */
export const templateVariantOf = (request: Request): string | null => (templateUserOf(request) ? request.headers.get(templateVariantHeader) : null);

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
  /** Unique in the process: with the parent's values, it names a filled page's bytes (`FilledPage.key`). */
  id: number;
  parts: string[];
  /** Each distinct value the page holds (a field, in data or in markup); a page holds each several times (the nonce in every script). */
  values: { slot: Slot; inScript: boolean }[];
  /** Between part i and part i + 1: which of `values`. */
  slots: number[];
  /** The parts, compressed once (per length of the nonce), for a gzip answer that compresses only the values per request. */
  compressedParts: Map<number, Piece[]>;
  hashes: HashPlan;
}

/**
 * What a filled page's CSP names: the hashes of the scripts no parent's value reaches and of the styles, made
 * once; the scripts that hold a value (React Router's data) as their text between the values (`values` as `slots`).
 */
interface HashPlan {
  scripts: string[];
  filledScripts: { texts: string[]; values: number[] }[];
  styles: string[];
}

/**
 * A template filled in with a parent's values: its HTML with a given nonce, the same as gzip, and the hashes of its
 * inline scripts and styles (each made when asked for). `key` names those bytes but the nonce: one key, one page
 * (the host keeps filled pages by it, with a CSP of their hashes: server/signed-in-pages.ts).
 */
export interface FilledPage {
  key: string;
  html: (nonce: string) => string;
  gzip: (nonce: string) => Buffer;
  hashes: (nonce: string) => { scripts: string[]; styles: string[] };
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

let templatesMade = 0;

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
  const marks: Mark[] = [];
  let at = 0;
  for (const match of html.matchAll(pattern)) {
    const [, marked] = found.find(([marker]) => marker === match[0])!;
    const scriptAt = html.lastIndexOf("<script", match.index);
    const inScript = scriptAt > html.lastIndexOf("</script>", match.index);
    // A style's text is named by its hash made once per template: no parent's value may stand in one (its nonce
    // attribute aside).
    const styleAt = html.lastIndexOf("<style", match.index);
    if (styleAt > html.lastIndexOf("</style>", match.index) && html.indexOf(">", styleAt) < match.index) return null;
    const slot = marked === "displayName" && !inScript ? "shownName" : marked;
    const fits = slot === "nonce" || (inScript ? dataSlots.has(slot) && html.startsWith(dataScript, html.indexOf(">", scriptAt) + 1) : markupSlots.has(slot));
    if (!fits) return null;
    parts.push(html.slice(at, match.index));
    const known = values.findIndex((value) => value.slot === slot && value.inScript === inScript);
    slots.push(known === -1 ? values.push({ slot, inScript }) - 1 : known);
    at = match.index + match[0].length;
    marks.push({ start: match.index, end: at, value: slots.at(-1)! });
  }
  parts.push(html.slice(at));
  if (parts.length === 1) return null;
  templatesMade += 1;
  return { id: templatesMade, parts, values, slots, compressedParts: new Map(), hashes: hashPlanOf(html, marks) };
}

/** A marker found in a template render: where it stands, and which of the template's values goes there. */
interface Mark {
  start: number;
  end: number;
  value: number;
}

/** The inline scripts' and styles' hashes of the template's pages: those a parent's value changes, as text around the values. */
function hashPlanOf(html: string, marks: Mark[]): HashPlan {
  const plan: HashPlan = { scripts: [], filledScripts: [], styles: [...new Set(inlineStyleTexts(html).map(cspHashOf))] };
  for (const { start, end } of inlineScriptTexts(html)) {
    const inside = marks.filter((mark) => mark.start >= start && mark.end <= end);
    if (!inside.length) {
      plan.scripts.push(cspHashOf(html.slice(start, end)));
      continue;
    }
    const texts = inside.map((mark, index) => html.slice(index ? inside[index - 1]!.end : start, mark.start));
    plan.filledScripts.push({ texts: [...texts, html.slice(inside.at(-1)!.end, end)], values: inside.map((mark) => mark.value) });
  }
  return plan;
}

/** The hashes of a filled page's inline scripts and styles. */
function hashesOf(plan: HashPlan, texts: string[]): { scripts: string[]; styles: string[] } {
  const filled = plan.filledScripts.map((script) => cspHashOf(script.texts.map((text, index) => (index ? texts[script.values[index - 1]!]! : "") + text).join("")));
  return { scripts: [...new Set([...plan.scripts, ...filled])], styles: plan.styles };
}

/** The template's parts compressed, each with the parts before it as far as a parent's value (decision 713's addendum). */
function compressedParts(template: Template, nonceBytes: number): Piece[] {
  let compressed = template.compressedParts.get(nonceBytes);
  if (!compressed) {
    const gaps = template.slots.map((index) => (template.values[index]!.slot === "nonce" ? nonceBytes : null));
    compressed = fixedPieces(template.parts.map((part) => Buffer.from(part)), gaps);
    template.compressedParts.set(nonceBytes, compressed);
  }
  return compressed;
}

function fill(template: Template, user: SessionUser): FilledPage {
  // The shown name and every escaping follow from these (and the template from the user's shape).
  const key = `${template.id}${JSON.stringify([user.uid, user.email, user.displayName, user.photoURL])}`;
  // Each value escaped, and stored, once however often the page holds it; once per nonce (a kept page asks its
  // hashes, gzip and HTML with the same one).
  let escaped: { nonce: string; texts: string[] } | undefined;
  const textsWith = (nonce: string) => {
    if (escaped?.nonce === nonce) return escaped.texts;
    const values: Record<Slot, string> = {
      uid: user.uid,
      email: user.email ?? "",
      displayName: user.displayName ?? "",
      photoURL: user.photoURL ?? "",
      shownName: displayNameOf(user),
      nonce,
    };
    const texts = template.values.map(({ slot, inScript }) => (slot === "nonce" ? values[slot] : inScript ? escapeInData(values[slot]) : escapeMarkup(values[slot])));
    escaped = { nonce, texts };
    return texts;
  };
  return {
    key,
    html: (nonce) => {
      const texts = textsWith(nonce);
      return template.parts.map((part, index) => (index ? texts[template.slots[index - 1]!]! : "") + part).join("");
    },
    hashes: (nonce) => hashesOf(template.hashes, textsWith(nonce)),
    gzip: (nonce) => {
      const stored = textsWith(nonce).map((text) => storedPiece(Buffer.from(text)));
      const parts = compressedParts(template, Buffer.byteLength(nonce));
      const pieces: Piece[] = [parts[0]!];
      for (let index = 1; index < parts.length; index += 1) pieces.push(stored[template.slots[index - 1]!]!, parts[index]!);
      return gzipPieces(pieces);
    },
  };
}

/**
 * Pages rendered from the database (kept for visitors by the page cache) whose only parts that are a parent's own,
 * besides the user area, their owner names as a *variant*: the wishing well's board, where it is which of the
 * page's wishes they voted for or made. Parents of one shape and one variant get the same page until the public
 * content changes.
 */
export interface PageVariants {
  /**
   * Whether the address is such a page, spelled exactly as the site's own links spell it (`search` with its `?`, or
   * empty): another spelling of it is rendered whole, so a client cannot make templates by the thousand.
   */
  takes(pathname: string, search: string): boolean;
  /**
   * The parent's variant of the page, or null to render it whole: `key` names its template (what it shows of the
   * parent's), `version` which state of the page it shows (a newer one replaces the template), `hint` what the
   * template request's loader shows the marker user (its loader answers otherwise than 200 when that state is gone).
   * `atOnce`: undefined where finding it would wait.
   */
  variantOf(userId: string, url: Address, atOnce: boolean): Promise<Variant | null | undefined>;
}

export interface Variant {
  key: string;
  version: number;
  hint: string;
}

/** An address as the pages read it: its path, and its query with its `?` (or empty). */
export type Address = Pick<URL, "pathname" | "search">;
/** A template as it is being made, and once made (null: the page cannot be one). */
interface TemplateEntry {
  template: Promise<Template | null>;
  made?: Template | null;
}

/** A variant's template, with the state of the page it shows, its end and about the bytes it holds. */
interface VariantTemplate extends TemplateEntry {
  version: number;
  expires: number;
  bytes: number;
}

/** At most this many variant templates are kept, and at most `variantMaxBytes` of them. */
const maxVariantTemplates = 256;
/** What a template holds, about: its page's text as parts (two bytes a character), their UTF-8 and their gzip. */
const templateBytes = (template: Template | null) => (template ? template.parts.reduce((total, part) => total + 5 * part.length, 0) : 0);

/**
 * The signed-in answers of the pages at `paths`, and of `variants`' pages. `render` is React Router's request
 * handler; `siteUrl` the address templates are rendered at; `variantSeconds` how long a variant's template is
 * kept (the page cache's lifetime: how long another instance's write may take to show, without Redis; 0 renders
 * such pages whole). `answer` gives the HTML for the request's parent with `nonce`, or null: no parent behind the
 * cookie, a photo address React would rewrite, or a page that could not be made a template (the page is then
 * rendered per request, as before).
 */
export function signedInPages(options: {
  render: (request: Request) => Promise<Response>;
  siteUrl: string;
  paths: ReadonlySet<string>;
  variants?: PageVariants;
  variantSeconds?: number;
  variantMaxBytes?: number;
}) {
  /** The prerendered pages' templates, per shape and page: being made, and once made (null: the page cannot be one). */
  const templates = new Map<string, TemplateEntry>();
  const templateKey = (path: string, shape: string) => `${shape}${path}`;
  const variantTemplates = new Map<string, VariantTemplate>();
  let variantBytes = 0;
  const dropVariant = (key: string) => {
    const entry = variantTemplates.get(key);
    if (!entry) return;
    variantBytes -= entry.bytes;
    variantTemplates.delete(key);
  };
  onPublicContentChanged(() => {
    variantTemplates.clear();
    variantBytes = 0;
  });
  const variantSeconds = options.variantSeconds ?? 0;
  const variantMaxBytes = options.variantMaxBytes ?? 16 * 1024 * 1024;

  /** Renders a template; a failed render is forgotten (`forget`) so that the next request tries again. */
  const renderTemplate = (address: string, shape: string, forget: () => void, hint?: string) => {
    const headers: Record<string, string> = { [templateHeader]: shape, [cspNonceHeader]: markers.nonce };
    if (hint !== undefined) headers[templateVariantHeader] = hint;
    const request = new Request(new URL(address, options.siteUrl), { headers });
    return options.render(request).then(
      async (response) => {
        const html = await response.text();
        // A page that cannot be a template stays rendered per request.
        if (response.status !== 200) forget();
        return response.status === 200 ? templateOf(html, templateUserOf(request)!) : null;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
  };
  const templateFor = (path: string, shape: string) => {
    const key = templateKey(path, shape);
    let entry = templates.get(key);
    if (!entry) {
      // A failed render is forgotten (the entry goes, and the next request tries again).
      const made: TemplateEntry = { template: renderTemplate(path, shape, () => templates.delete(key)) };
      made.template.then((template) => (made.made = template), () => undefined);
      templates.set(key, (entry = made));
    }
    return entry.template;
  };
  /**
   * A variant's template, one per page, shape and key, replaced when the page's state (`version`) moves on; `atOnce`,
   * only one already made (undefined otherwise: making it waits on a render).
   */
  const variantTemplateFor = (url: Address, shape: string, variant: Variant, atOnce: boolean) => {
    const key = `${shape}${url.pathname}${url.search}|${variant.key}`;
    const kept = variantTemplates.get(key);
    if (kept && kept.version === variant.version && kept.expires > Date.now()) return atOnce ? kept.made : kept.template;
    if (atOnce) return undefined;
    dropVariant(key);
    if (variantTemplates.size >= maxVariantTemplates) dropVariant(variantTemplates.keys().next().value!);
    const entry: VariantTemplate = {
      version: variant.version,
      expires: Date.now() + variantSeconds * 1000,
      template: renderTemplate(url.pathname + url.search, shape, () => variantTemplates.get(key) === entry && dropVariant(key), variant.hint),
      bytes: 0,
    };
    entry.template.then(
      (made) => {
        entry.made = made;
        if (variantTemplates.get(key) !== entry) return;
        entry.bytes = templateBytes(made);
        variantBytes += entry.bytes;
        // The oldest go first; one template larger than the whole allowance is not kept.
        while (variantBytes > variantMaxBytes && variantTemplates.size) dropVariant(variantTemplates.keys().next().value!);
      },
      () => undefined,
    );
    variantTemplates.set(key, entry);
    return entry.template;
  };
  const isPrerendered = (url: Address) => !url.search && options.paths.has(url.pathname);
  const isVariant = (pathname: string, search: string) => variantSeconds > 0 && options.variants?.takes(pathname, search) === true;
  /** `atOnce`: null where making the page would wait on a read or a render (the chain's layer then makes it). */
  const filledFor = async (user: SessionUser | null, url: Address, atOnce = false) => {
    if (!user || !fillable(user)) return null;
    const shape = shapeOf(user);
    let template: Template | null | undefined;
    if (isPrerendered(url)) template = await templateFor(url.pathname, shape);
    else {
      const variant = await options.variants?.variantOf(user.uid, url, atOnce);
      template = variant ? await variantTemplateFor(url, shape, variant, atOnce) : null;
    }
    return template ? fill(template, user) : null;
  };
  return {
    /** An address without a query this layer may answer: a prerendered page, or a variants' page. */
    has: (path: string) => options.paths.has(path) || isVariant(path, ""),
    /** An address this layer may answer: a prerendered page without a query, or a variants' page. */
    takes: (url: URL) => isPrerendered(url) || isVariant(url.pathname, url.search),
    answer: async (request: Request, url: Address): Promise<FilledPage | null> => filledFor(await getServerSessionUser(request), url),
    /**
     * The same for an address without a query from a request's Cookie header alone, for the answer in front of the
     * middleware chain (server/signed-in-pages.ts): null also where the session is Better Auth's to answer (it has
     * something to write), where a read fails, and where a variant's page would wait; the chain then answers, with
     * all it does for such a request.
     */
    async answerFromCookie(cookie: string, path: string): Promise<FilledPage | null> {
      const current = await getAuthService().readSessionUnlessDue({ get: (name) => (name === "cookie" ? cookie : null) });
      return current ? filledFor(sessionUserOf(current), { pathname: path, search: "" }, true) : null;
    },
    /**
     * `answerFromCookie` without a promise, for a prerendered page whose template for the parent's shape is made, on
     * SQLite's connection while nothing holds it: a promise's turns were a tenth of such an answer. Undefined wherever
     * it cannot tell at once (`answerFromCookie` then does), null as that would be.
     */
    answerFromCookieAtOnce(cookie: string, path: string): FilledPage | null | undefined {
      if (!options.paths.has(path)) return undefined;
      const current = getAuthService().readSessionAtOnce(cookie);
      if (!current) return current;
      const user = sessionUserOf(current);
      if (!user || !fillable(user)) return null;
      const template = templates.get(templateKey(path, shapeOf(user)))?.made;
      return template === undefined ? undefined : template && fill(template, user);
    },
  };
}
