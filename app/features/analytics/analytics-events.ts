import { z } from "~/lib/zod";

/**
 * The events of the original §7, with their parameters: the one definition the endpoint validates
 * against. The browser imports only the types (`import type`), so zod stays out of the client bundle.
 */
const path = z.string().startsWith("/").max(2048);
const absoluteUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const shareMethods = ["native", "facebook", "twitter", "line", "copy"] as const;

export const eventParamSchemas = {
  landing_page_open: z.object({}).strict(),
  page_view: z.object({ page_path: path, page_title: z.string().max(300), page_location: absoluteUrl }).strict(),
  logo_click: z.object({}).strict(),
  menu_toggle: z.object({ is_open: z.boolean() }).strict(),
  nav_click: z.object({ destination: path }).strict(),
  website_share: z.object({ share_method: z.enum(shareMethods), share_url: absoluteUrl }).strict(),
  fanpage_support_click: z.object({ source: z.string().regex(/^[a-z_]{1,40}$/) }).strict(),
};

export type EventName = keyof typeof eventParamSchemas;
export type EventParams = { [Name in EventName]: z.infer<(typeof eventParamSchemas)[Name]> };
export type ShareMethod = (typeof shareMethods)[number];
