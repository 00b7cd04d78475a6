import MarkdownIt from "markdown-it";

// Raw HTML in Markdown is shown as text, never passed through; links are limited to the schemes below.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
const safeLink = /^(https?:|mailto:|\/(?!\/)|#)/i;

markdown.validateLink = (url) => safeLink.test(url.trim());

const defaultLinkOpen = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const href = String(token.attrGet("href") ?? "");
  if (/^https?:/i.test(href)) {
    token.attrSet("rel", "noopener noreferrer");
    token.attrSet("target", "_blank");
  }
  return defaultLinkOpen ? defaultLinkOpen(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

/** Markdown to HTML that is safe to insert: no raw HTML, no script or data links. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
