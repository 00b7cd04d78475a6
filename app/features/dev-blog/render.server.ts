import sanitizeHtml from "sanitize-html";
import { renderMarkdown } from "~/features/articles/markdown.server";

/**
 * A dev-blog body as HTML: the site's Markdown pipeline (raw HTML shown as text, unsafe link schemes dropped),
 * then an allow-list sanitiser kept as a second wall, since these bodies are written through a web form rather
 * than reviewed into the repository. The editor's preview and the published page both come from here.
 */
export function renderPostBody(markdown: string, siteUrl: string): string {
  return sanitizeHtml(renderMarkdown(markdown), sanitizeOptions(new URL(siteUrl).origin));
}

const isExternal = (href: string, siteOrigin: string) => {
  if (!/^https?:/i.test(href)) return false;
  try {
    return new URL(href).origin !== siteOrigin;
  } catch {
    return true;
  }
};

function sanitizeOptions(siteOrigin: string): sanitizeHtml.IOptions {
  return {
    allowedTags: [
      "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code", "em", "strong", "s", "del",
      "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th", "td",
    ],
    allowedAttributes: { a: ["href", "title", "rel", "target"], img: ["src", "alt", "title", "loading", "decoding"], ol: ["start"] },
    allowedClasses: { code: ["language-*"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https"] },
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: {
      // The page's title is the one h1; a body's top-level headings become section headings.
      h1: "h2",
      a: (tagName, attribs) => {
        const { rel: _rel, target: _target, ...rest } = attribs;
        const href = rest.href ?? "";
        return isExternal(href, siteOrigin)
          ? { tagName, attribs: { ...rest, rel: "noopener nofollow ugc", target: "_blank" } }
          : { tagName, attribs: rest };
      },
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy", decoding: "async" } }),
    },
  };
}
