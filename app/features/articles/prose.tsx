/** HTML rendered on the server from Markdown with raw HTML disabled and links filtered (markdown.server.ts). */
export function Prose({ html }: { html: string }) {
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
