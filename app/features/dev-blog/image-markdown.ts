/** The Markdown of an uploaded image: its file name (without extension, brackets or line breaks) as the alt text. */
export function imageMarkdown(fileName: string, url: string): string {
  const alt = fileName
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[[\]()\\<>`*_\r\n]+/g, " ")
    .trim()
    .slice(0, 80);
  return `![${alt || "圖片"}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
}

/** `snippet` put in place of text[start, end), on a line of its own; answers the new text and the caret after it. */
export function insertBlock(text: string, start: number, end: number, snippet: string) {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const trail = after.startsWith("\n") ? "" : "\n";
  const inserted = `${lead}${snippet}${trail}`;
  return { text: before + inserted + after, caret: before.length + inserted.length };
}

/** A storage object name for an image under blog/: a random part (names never collide) and a tidy file name. */
export function blogImagePath(fileName: string, random: string, now = new Date()): string {
  const tidy = fileName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(-60);
  return `blog/${now.toISOString().slice(0, 7)}/${random}-${tidy || "image"}`;
}
