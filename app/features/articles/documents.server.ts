import { articleLinks } from "./collections.server";
import { contentVariables } from "~/features/pages/variables.server";
import { legalFrontMatter, parseMarkdownFile, slugOf, topicFrontMatter } from "./front-matter.server";
import { renderMarkdown } from "./markdown.server";
import { fillText } from "~/features/pages/placeholders";

// Single Markdown documents: learning-resources topics and the legal pages.
const topicFiles = import.meta.glob<string>("/content/learning/*.md", { query: "?raw", import: "default", eager: true });
const legalFiles = import.meta.glob<string>("/content/legal/*.md", { query: "?raw", import: "default", eager: true });

function parseTopics() {
  const variables = contentVariables();
  return Object.entries(topicFiles)
    .map(([file, raw]) => {
      const { meta, body } = parseMarkdownFile(file, fillText(raw, variables, file), topicFrontMatter);
      return { ...meta, slug: slugOf(file), html: renderMarkdown(body) };
    })
    .sort((a, b) => a.order - b.order);
}

let topics: ReturnType<typeof parseTopics> | undefined;
const allTopics = () => (topics ??= parseTopics());

export function listTopics() {
  return allTopics().map(({ slug, title, summary }) => ({ slug, title, summary }));
}

/** One topic by its path under /learning-resources/, with links to its related blog articles; null if none. */
export function getTopic(path: string) {
  const topic = allTopics().find((candidate) => candidate.slug === path);
  return topic ? { ...topic, related: articleLinks("blog", topic.related) } : null;
}

export type LegalDocument = "privacy" | "terms";

export function getLegalDocument(name: LegalDocument) {
  const file = `/content/legal/${name}.md`;
  const raw = legalFiles[file];
  if (raw === undefined) throw new Error(`${file} is missing`);
  const { meta, body } = parseMarkdownFile(file, fillText(raw, contentVariables(), file), legalFrontMatter);
  return { ...meta, html: renderMarkdown(body) };
}
