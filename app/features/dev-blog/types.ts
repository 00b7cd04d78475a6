/** A dev-blog post as the screens see it. Times are ISO-8601 strings. */
export type PostStatus = "draft" | "published";

export interface PostSummary {
  id: string;
  title: string;
  summary: string;
  coverUrl: string | null;
  tags: string[];
  publishedAt: string | null;
  readingMinutes: number;
  authorName: string | null;
}

export interface PostPage extends PostSummary {
  html: string;
  status: PostStatus;
  updatedAt: string;
}

/** What the editor needs to continue editing: the Markdown source and the version the edit is based on. */
export interface EditablePost {
  id: string;
  title: string;
  summary: string;
  body: string;
  coverUrl: string | null;
  tags: string[];
  status: PostStatus;
  version: number;
  updatedAt: string;
}

export interface PostListPage {
  items: PostSummary[];
  page: number;
  pageCount: number;
  tag: string | null;
}
