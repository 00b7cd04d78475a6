import matter from "gray-matter";
import { z } from "zod";

const isoDate = z.coerce.date().transform((date) => date.toISOString().slice(0, 10));

const image = z.object({
  src: z.string().regex(/^\/images\/[\w/-]+\.svg$/, "an SVG under /images/"),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

/** Front matter of a blog article or news item. */
export const articleFrontMatter = z.strictObject({
  title: z.string().trim().min(1).max(60),
  date: isoDate,
  summary: z.string().trim().min(20).max(160),
  category: z.string().trim().min(1).max(12),
  cover: image,
  author: z.string().trim().min(1),
});

/** Front matter of a learning-resources topic. */
export const topicFrontMatter = z.strictObject({
  title: z.string().trim().min(1).max(40),
  summary: z.string().trim().min(20).max(160),
  order: z.number().int().nonnegative(),
  related: z.array(z.string().regex(/^[a-z0-9-]+$/)).default([]),
});

/** Front matter of a legal page (privacy, terms). */
export const legalFrontMatter = z.strictObject({
  title: z.string().trim().min(1),
  summary: z.string().trim().min(20).max(160),
  updated: isoDate,
});

/**
 * Splits a Markdown file into validated front matter and body. A file that does not fit the schema
 * throws an error naming the file and each field at fault, so the build and the tests stop on it.
 */
export function parseMarkdownFile<Schema extends z.ZodType>(file: string, source: string, schema: Schema) {
  const { data, content } = matter(source);
  const result = schema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(front matter)"}: ${issue.message}`);
    throw new Error(`${file}: invalid front matter\n  ${problems.join("\n  ")}`);
  }
  if (!content.trim()) throw new Error(`${file}: the body is empty`);
  return { meta: result.data as z.output<Schema>, body: content };
}

/** `content/blog/some-slug.md` → `some-slug`; only lower-case letters, digits and hyphens make a slug. */
export function slugOf(file: string): string {
  const slug = file.split("/").pop()?.replace(/\.md$/, "") ?? "";
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) throw new Error(`${file}: file name is not a valid slug`);
  return slug;
}
