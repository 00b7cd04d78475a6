import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Code and docs cite the specification as "PRODUCT §N" (docs/product/requirements.md) and "the original §N"
// (docs/product/original-behaviour.md); only the two documents may write a bare "§N", for a section of their own.
// Every citation names its document, and every cited section exists.
const sign = "\u00a7";
const requirements = "docs/product/requirements.md";
const original = "docs/product/original-behaviour.md";
const searched = ["app", "server", "content", "tests", "bench", "scripts", "docs", "README.md", "CONTRIBUTING.md", "server.mjs"];

function sectionsOf(file: string): Set<string> {
  return new Set([...fs.readFileSync(file, "utf8").matchAll(/^## (\d+)\. /gm)].map((match) => match[1] ?? ""));
}

function textFiles(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  if (fs.statSync(entry).isFile()) return [entry];
  return fs
    .readdirSync(entry, { withFileTypes: true, recursive: true })
    .filter((item) => item.isFile() && /\.(tsx?|m?js|md|css|sh)$/.test(item.name))
    .map((item) => path.join(item.parentPath, item.name));
}

interface Citation {
  where: string;
  /** The cited document; undefined where the citation does not say which. */
  document: string | undefined;
  section: string;
}

/**
 * The document a section sign cites: named by the word just before it ("PRODUCT §3"), carried along a list
 * ("the original §3, §5, §7–§9"), or, in the two documents only, the file itself.
 */
function citationsIn(file: string): Citation[] {
  const own = [requirements, original].find((document) => path.resolve(document) === path.resolve(file));
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, index) => {
      let previous: { end: number; document: string | undefined } | undefined;
      return [...line.matchAll(new RegExp(`${sign}\\s?(\\d+)`, "g"))].map((match) => {
        const named = /\b(PRODUCT|original) $/.exec(line.slice(0, match.index))?.[1];
        const listed = previous && /^(, ?|\s?[–-]\s?| and | or )$/.test(line.slice(previous.end, match.index)) ? previous.document : undefined;
        const document = named === "PRODUCT" ? requirements : named === "original" ? original : (listed ?? own);
        previous = { end: match.index + match[0].length, document };
        return { where: `${file}:${index + 1}`, document, section: match[1] ?? "" };
      });
    });
}

describe("citations of the specification", () => {
  const sections: Record<string, Set<string>> = { [requirements]: sectionsOf(requirements), [original]: sectionsOf(original) };
  const citations = searched.flatMap(textFiles).flatMap(citationsIn);

  it("finds both documents with sections 1 to 9, and the citations in code and docs", () => {
    const oneToNine = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
    expect([...(sections[requirements] ?? [])]).toEqual(oneToNine);
    expect([...(sections[original] ?? [])]).toEqual(oneToNine);
    expect(citations.filter((citation) => citation.document === requirements).length).toBeGreaterThan(20);
    expect(citations.filter((citation) => citation.document === original).length).toBeGreaterThan(10);
  });

  it('names the document every time: "PRODUCT §N" or "the original §N", never "PRODUCT.md §N" or a bare "§N"', () => {
    const unnamed = citations.filter((citation) => !citation.document).map((citation) => `${citation.where}: ${sign}${citation.section}`);
    expect(unnamed).toEqual([]);
  });

  it("names only sections that exist", () => {
    const missing = citations
      .filter((citation) => citation.document && !sections[citation.document]?.has(citation.section))
      .map((citation) => `${citation.where}: ${sign}${citation.section} is not a section of ${citation.document}`);
    expect(missing).toEqual([]);
  });
});
